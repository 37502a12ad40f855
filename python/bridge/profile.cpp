/* q7cc.torch.profile (bridge.h q7t_profile_*): while a profile is open,
 * each call of an emulated op runs in a QEMU of its own with its
 * instruction trace (run/emu_profile.h), its stacks added under
 * the op's qualified name; closing it writes the flame graph or the
 * folded stacks. Outside, a call pays one relaxed atomic load. */
#include "boxed_kernel.h"
#include "bridge.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

extern "C" {
#include "device_view.h"
#include "engine.h"
#include "support.h"
}

namespace {

std::mutex profile_lock; /* the profile, and one profiled call at a time */
struct q7_prof profile;
bool open_profile = false;
std::map<std::string, uint64_t> calls; /* per op: its calls in the profile */

} // namespace

namespace q7torch {

std::atomic<bool> profiling{false};

int profile_call(Engine *e, const std::string &qualname, const q7_call *call, q7_run_result *r)
{
	std::lock_guard<std::mutex> g(profile_lock);
	if (!open_profile) /* closed meanwhile */
		return q7_engine_call(e->engine, call, r);
	unsigned root = q7_prof_child(&profile, Q7_PROF_ROOT, qualname.c_str());
	calls[qualname]++;
	q7_engine_profile(e->engine, &profile, root);
	int rc = q7_engine_call(e->engine, call, r);
	q7_engine_profile(e->engine, nullptr, 0);
	return rc;
}

} // namespace q7torch

extern "C" {

int q7t_profile_start(char **err)
{
	std::lock_guard<std::mutex> g(profile_lock);
	if (open_profile) {
		*err = q7_xstrdup("q7cc.torch.profile: a profile is already open in this process "
		                  "(one at a time: its calls are counted into it)");
		return -1;
	}
	q7_prof_init(&profile);
	calls.clear();
	open_profile = true;
	q7torch::profiling.store(true);
	return 0;
}

int q7t_profile_stop(const char *path, int raw, char **ops, char **err)
{
	std::lock_guard<std::mutex> g(profile_lock);
	if (!open_profile) {
		*err = q7_xstrdup("q7cc.torch.profile: no profile is open");
		return -1;
	}
	q7torch::profiling.store(false);
	open_profile = false;
	char msg[Q7_MESSAGE_SIZE] = "";
	q7_err msg_err = {msg, sizeof msg, false};
	q7_prof dev; /* the device view (device_view.h) */
	q7_prof_init(&dev);
	q7_prof_device_view(&profile, &dev);
	const char *title = raw ? "emulated ops (q7cc.torch.profile; raw: as emulated)"
	                        : "emulated ops (q7cc.torch.profile; device view: a float or "
	                          "divide helper's call one instruction)";
	int rc = path ? q7_prof_write(raw ? &profile : &dev, path, title, &msg_err) : 0;
	if (ops) { /* "op\tcalls\tdevice\traw\n" a line, by name */
		q7_prof_sum(&profile);
		q7_prof_sum(&dev);
		std::string text;
		const q7_prof &p = profile;
		for (unsigned c = p.v[Q7_PROF_ROOT].first_child; c; c = p.v[c].next_sibling) {
			unsigned d = q7_prof_child(&dev, Q7_PROF_ROOT, p.v[c].name);
			text += std::string(p.v[c].name) + "\t" + std::to_string(calls[p.v[c].name]) + "\t" +
			        std::to_string(dev.v[d].total) + "\t" + std::to_string(p.v[c].total) + "\n";
		}
		*ops = q7_xstrdup(text.c_str());
	}
	q7_prof_free(&dev);
	q7_prof_free(&profile);
	if (rc != 0)
		*err = q7_xstrdup(msg);
	return rc;
}

} // extern "C"
