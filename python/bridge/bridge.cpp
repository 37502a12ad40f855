/* The bridge's C API (bridge.h): open a library with the run engine,
 * collect its ops (from the shape library's NEURON_LIBRARY blocks, or
 * from the schemas q7cc derived), check them, and register them in the
 * dispatcher, one torch::Library per namespace. The process-wide table of
 * loaded libraries makes loading twice idempotent and keeps a namespace
 * to one library. */
#include "bridge.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <ATen/core/function_schema.h>
#include <c10/util/Exception.h>
#include <c10/util/Type.h>
#include <torch/library.h>
#include <torch/version.h>

#include "boxed_kernel.h"

extern "C" {
#include "engine.h"
#include "host_elf.h"
#include "run_image.h"
#include "support.h"
#include "target.h"
}

namespace {

using q7torch::Engine;
using q7torch::OpKernel;

struct OpDef {
	std::string ns, name, compute;
	std::unique_ptr<c10::FunctionSchema> schema; /* named ns::name */
	q7cc::neuron::ShapeInvoker invoke = nullptr;
	void (*shape)() = nullptr;
	std::string where; /* "shape.cpp:12" or the library */
};

/* A file as it is now: loading it again is the same load only if none
 * of these changed. */
struct FileId {
	std::string path;
	struct stat st = {};
	bool operator==(const FileId &o) const
	{
		return st.st_dev == o.st.st_dev && st.st_ino == o.st.st_ino && st.st_size == o.st.st_size &&
		       st.st_mtim.tv_sec == o.st.st_mtim.tv_sec && st.st_mtim.tv_nsec == o.st.st_mtim.tv_nsec;
	}
};

/* path's FileId into *id: "" or why not. */
std::string file_id(const char *path, FileId *id)
{
	id->path = path;
	if (stat(path, &id->st) != 0)
		return id->path + ": cannot read: " + std::strerror(errno);
	return "";
}

struct Loaded {
	FileId lib, shape; /* shape all zero without a shape library: no file's */
	std::string target;
	int isolate = 0; /* q7t_load's: 0 in this process, 1 isolated, 2 sanitized */
	std::shared_ptr<Engine> engine;
	void *shape_handle = nullptr;
	std::vector<std::unique_ptr<torch::Library>> libraries;
	std::vector<std::string> lines; /* q7t_ops */
	~Loaded()
	{
		libraries.clear(); /* no kernel calls a shape function after this */
		if (shape_handle)
			dlclose(shape_handle);
	}
};

std::mutex table_lock;
std::vector<std::unique_ptr<Loaded>> table;   /* never shrinks: ops stay registered */
std::map<std::string, const Loaded *> owners; /* namespace -> its library */

/* What the shape library's blocks define, collected by the registrar. */
struct Collector {
	std::vector<OpDef> defs;
	std::string error;
};

void collect_def(void *ctx, const char *ns, const char *op, const c10::FunctionSchema *schema,
                 const char *compute, q7cc::neuron::ShapeInvoker invoke, void (*shape)(),
                 const char *file, int line)
{
	Collector *c = static_cast<Collector *>(ctx);
	if (!c->error.empty())
		return;
	try {
		OpDef d;
		d.ns = ns;
		d.name = op ? op : "";
		d.compute = compute ? compute : "";
		d.where = std::string(file ? file : "?") + ":" + std::to_string(line);
		if (d.name.empty() || d.compute.empty() || !schema || !invoke || !shape) {
			c->error = d.where + ": NEURON_LIBRARY(" + d.ns + "): m.def needs an op name, a shape "
			           "function and the compute function's name";
			return;
		}
		/* the inferred arguments (_0, _1, ...), the return unnamed */
		std::vector<c10::Argument> returns;
		for (const c10::Argument &a : schema->returns())
			returns.emplace_back("", a.type());
		d.schema.reset(new c10::FunctionSchema(d.ns + "::" + d.name, "", schema->arguments(),
		                                       std::move(returns)));
		d.invoke = invoke;
		d.shape = shape;
		c->defs.push_back(std::move(d));
	} catch (const std::exception &e) {
		c->error = std::string(file ? file : "?") + ": " + e.what();
	}
}

/* Only what the runtime can pass: Tensor, int, float, bool, Scalar in,
 * one Tensor out. */
std::string check_schema(const OpDef &d)
{
	const c10::FunctionSchema &s = *d.schema;
	std::string what = d.ns + "::" + d.name + " (" + d.where + ")";
	if (s.returns().size() != 1 || s.returns()[0].type()->kind() != c10::TypeKind::TensorType)
		return what + ": the op must return one Tensor: " + c10::toString(s);
	if (s.arguments().size() > Q7_MAX_ARGS)
		return what + ": " + std::to_string(s.arguments().size()) + " arguments, at most " +
		       std::to_string(Q7_MAX_ARGS);
	static const std::set<c10::TypeKind> passes = {
	    c10::TypeKind::TensorType, c10::TypeKind::IntType, c10::TypeKind::FloatType,
	    c10::TypeKind::BoolType, c10::TypeKind::NumberType};
	for (const c10::Argument &a : s.arguments())
		if (!passes.count(a.type()->kind()))
			return what + ": argument '" + a.name() + "' is " + a.type()->str() +
			       "; q7cc's runtime passes Tensor, int, float, bool and Scalar";
	return "";
}

/* One of the library's kernels: its compute function and q7cc's schema. */
struct Kernel {
	std::string name, schema;
};

/* The derived ops: every kernel the library lists, by its schema, but
 * the ones whose compute function a shape library's m.def already names;
 * in ns when it is given, else in the schema's own, else default_ns. */
std::string derived_defs(const std::vector<Kernel> &kernels, const char *default_ns, const char *lib,
                         std::vector<OpDef> *defs, const std::string &ns = "")
{
	size_t named = defs->size();
	for (const Kernel &k : kernels) {
		if (std::any_of(defs->begin(), defs->begin() + named,
		                [&](const OpDef &o) { return o.compute == k.name; }))
			continue;
		OpDef d;
		d.compute = k.name;
		d.where = lib;
		try {
			d.schema.reset(new c10::FunctionSchema(torch::schema(k.schema.c_str())));
		} catch (const std::exception &ex) {
			return std::string(lib) + ": op " + d.compute + ": the schema '" + k.schema +
			       "' is not TorchScript (a library built by an older q7cc? build it again): " +
			       ex.what();
		}
		const std::string &full = d.schema->name();
		auto own = d.schema->getNamespace();
		d.ns = !ns.empty() ? ns : own ? std::string(own->data(), own->size()) : default_ns;
		d.name = full.substr(full.rfind(':') + 1);
		*d.schema = d.schema->cloneWithName(d.ns + "::" + d.name, d.schema->overload_name());
		d.schema->setAliasAnalysis(c10::AliasAnalysisKind::FROM_SCHEMA); /* as torch::schema's */
		defs->push_back(std::move(d));
	}
	if (defs->empty())
		return std::string(lib) + ": the library has no ops";
	return "";
}

char *dup(const std::string &s) { return q7_xstrdup(s.c_str()); }

/* s as a JSON string, quoted (support's escaper: any name valid JSON). */
std::string json_string(const char *s)
{
	struct q7_strbuf b = {nullptr, 0, 0};
	q7_sb_add_json(&b, s);
	std::string o(b.s, b.len);
	q7_sb_free(&b);
	return o;
}

/* Where the shape function of the m.def at where ("shape.cpp:9") is
 * defined ("shape.cpp:5"), from the table q7cc.torch links into the shape
 * library (q7_neuron_shape_sites: "m.def<TAB>definition" lines, file
 * names without their folder, docs/torch.md); "" when it has none. The
 * table is read no further than its symbol's size: one that is no string
 * within it (a damaged or hand-made shape library: no NUL, a size that
 * does not cover it) is none, rather than a read past it. */
std::string shape_site(void *shape_handle, const std::string &where)
{
	const char *sites = shape_handle ? static_cast<const char *>(
	                                       dlsym(shape_handle, "q7_neuron_shape_sites"))
	                                 : nullptr;
	Dl_info info;
	void *entry = nullptr; /* the symbol's ElfW(Sym) */
	if (!sites || !dladdr1(sites, &info, &entry, RTLD_DL_SYMENT) || !entry ||
	    info.dli_saddr != sites)
		return "";
	const void *nul = std::memchr(sites, '\0', static_cast<const ElfW(Sym) *>(entry)->st_size);
	if (!nul)
		return "";
	std::string lines = "\n" + std::string(sites, static_cast<const char *>(nul));
	size_t at = lines.find("\n" + where + "\t");
	if (at == std::string::npos)
		return "";
	at += where.size() + 2;
	return lines.substr(at, lines.find('\n', at) - at);
}

/* "the shape function row_sums_shape (shape.cpp:5)": its name from the
 * shape library's symbols, where the shape library's table says it is
 * defined, else where the m.def named it ("its m.def at shape.cpp:9"). */
std::string shape_about(const OpDef &d, void *shape_handle)
{
	std::string name;
	Dl_info info;
	if (dladdr(reinterpret_cast<void *>(d.shape), &info) && info.dli_sname &&
	    info.dli_saddr == reinterpret_cast<void *>(d.shape)) {
		name = c10::demangle(info.dli_sname);
		name = name.substr(0, name.find('('));
	}
	std::string where = d.where.substr(d.where.rfind('/') + 1);
	std::string site = shape_site(shape_handle, where);
	return "the shape function " + (name.empty() ? "" : name + " ") +
	       (site.empty() ? "(its m.def at " + where + ")" : "(" + site + ")");
}

/* Registers defs (checked) for ld; the table lock is held. */
std::string register_defs(Loaded *ld, std::vector<OpDef> &defs)
{
	std::map<std::string, std::vector<OpDef *>> by_ns;
	for (OpDef &d : defs) {
		std::string bad = check_schema(d);
		if (!bad.empty())
			return bad;
		for (OpDef *o : by_ns[d.ns])
			if (o->name == d.name)
				return d.where + ": " + d.ns + "::" + d.name + " is defined twice (also at " +
				       o->where + ")";
		by_ns[d.ns].push_back(&d);
	}
	for (auto &kv : by_ns) {
		auto it = owners.find(kv.first);
		if (it != owners.end())
			return "namespace '" + kv.first + "' is already registered by " + it->second->lib.path +
			       " in this process (a namespace is loaded once per process; to load a new "
			       "build, start a new process)";
	}
	try {
		for (auto &kv : by_ns) {
			std::unique_ptr<torch::Library> l(new torch::Library(
			    torch::Library::DEF, kv.first, c10::nullopt, ld->lib.path.c_str(), 0));
			for (OpDef *d : kv.second) {
				std::unique_ptr<OpKernel> k(new OpKernel);
				k->engine = ld->engine;
				k->qualname = d->schema->name();
				k->compute = d->compute;
				k->nargs = d->schema->arguments().size();
				k->invoke = d->invoke;
				k->shape = d->shape;
				k->shape_about = shape_about(*d, ld->shape_handle);
				k->apart = q7_engine_apart(ld->engine->engine);
				k->profiles = q7_engine_target_row(ld->engine->engine)->can & Q7_TARGET_PROFILE;
				std::string line = k->qualname + "\t" + c10::toString(*d->schema) + "\t" + d->compute;
				std::unique_ptr<q7torch::MetaKernel> meta(new q7torch::MetaKernel);
				static_cast<q7torch::OpShape &>(*meta) = *k;
				auto impl = [&](c10::DispatchKey key, torch::CppFunction f) {
					l->impl(d->name.c_str(), torch::dispatch(key, std::move(f)));
				};
				l->def(std::move(*d->schema));
				impl(c10::DispatchKey::CPU, torch::CppFunction::makeFromBoxedFunctor(std::move(k)));
				impl(c10::DispatchKey::Meta, torch::CppFunction::makeFromBoxedFunctor(std::move(meta)));
#if TORCH_VERSION_MAJOR < 2
				/* torch 1.x has no fallback for meta tensors' autograd key */
				impl(c10::DispatchKey::AutogradMeta, torch::CppFunction::makeFallthrough());
#endif
				ld->lines.push_back(line);
			}
			ld->libraries.push_back(std::move(l));
		}
	} catch (const std::exception &e) {
		ld->libraries.clear(); /* undoes what was registered */
		ld->lines.clear();
		return e.what();
	}
	for (auto &kv : by_ns)
		owners[kv.first] = ld;
	return "";
}

/* The ops shape_lib's NEURON_LIBRARY blocks define, into *defs; the
 * library stays loaded (*handle: its shape functions are called later).
 * "" or why not. */
std::string collect_shape(const char *shape_lib, void **handle, std::vector<OpDef> *defs)
{
	char msg[Q7_MESSAGE_SIZE];
	q7_err err = {msg, sizeof msg, false};
	/* Checked first, as the host compute library is: the loader faults
	 * on a damaged one, inside dlopen, and so would Python. */
	if (q7_host_elf_check(shape_lib, &err) != 0)
		return msg;
	/* Privately, and its own symbols bound to itself: its shape
	 * functions mangle like the host compute library's. */
	*handle = dlopen(shape_lib, RTLD_NOW | RTLD_LOCAL);
	if (!*handle) {
		const char *why = dlerror();
		return std::string(shape_lib) + ": cannot load: " + (why ? why : "unknown error");
	}
	typedef int (*init_fn)(const q7cc::neuron::Registrar *);
	init_fn init = reinterpret_cast<init_fn>(dlsym(*handle, "q7_neuron_library_init"));
	if (!init)
		return std::string(shape_lib) + ": no NEURON_LIBRARY block (built without q7cc's "
		       "host <torchneuron/register.h>?)";
	Collector c;
	q7cc::neuron::Registrar r = {Q7_NEURON_REGISTRAR_VERSION, sizeof r, &c, collect_def};
	if (init(&r) != 0)
		return std::string(shape_lib) + ": built with another version of q7cc's "
		       "<torchneuron/register.h>; build it again";
	if (!c.error.empty())
		return c.error;
	if (c.defs.empty())
		return std::string(shape_lib) + ": its NEURON_LIBRARY blocks define no op";
	*defs = std::move(c.defs);
	return "";
}

/* "(Tensor, float, float)": a schema's argument types. */
std::string arg_types(const c10::FunctionSchema &s)
{
	std::string t;
	for (const c10::Argument &a : s.arguments())
		t += (t.empty() ? "" : ", ") + a.type()->str();
	return "(" + t + ")";
}

/* An m.def's compute function must be one of the library's kernels, and
 * the shape function's schema takes its parameter names (PyTorch infers
 * _0, _1, ... from a C++ type), so that keyword calls work; its types
 * must be the kernel's (q7cc's schema, from the C++): "" or why not, at
 * the m.def (load() says it at the build; this is for a library built
 * otherwise). */
std::string name_arguments(const std::vector<Kernel> &kernels, const char *lib, OpDef *d)
{
	auto k = std::find_if(kernels.begin(), kernels.end(),
	                      [&](const Kernel &o) { return o.name == d->compute; });
	if (k == kernels.end()) {
		std::string ops;
		for (const Kernel &o : kernels)
			ops += (ops.empty() ? "" : ", ") + o.name;
		return d->where + ": " + d->ns + "::" + d->name + ": compute function '" + d->compute +
		       "' is not in " + lib + " (its ops: " + (ops.empty() ? "none" : ops) + ")";
	}
	c10::optional<c10::FunctionSchema> parsed;
	try {
		parsed = torch::schema(k->schema.c_str());
	} catch (const std::exception &) {
		return ""; /* an older q7cc's schema: the names stay _0, _1, ... */
	}
	const std::vector<c10::Argument> &want = parsed->arguments(), &have = d->schema->arguments();
	if (!std::equal(want.begin(), want.end(), have.begin(), have.end(),
	                [](const c10::Argument &x, const c10::Argument &y) { return *x.type() == *y.type(); }))
		return d->where + ": " + d->ns + "::" + d->name + ": the shape function's arguments " +
		       arg_types(*d->schema) + " are not the kernel's: " + d->compute +
		       c10::toString(*parsed).substr(c10::toString(*parsed).find('('));
	std::vector<c10::Argument> named;
	for (size_t j = 0; j < have.size(); j++)
		named.emplace_back(want[j].name(), have[j].type());
	*d->schema = d->schema->cloneWithArguments(std::move(named));
	return "";
}

/* The ops of lib's kernels: the shape library's m.defs (its handle kept
 * in *shape_handle) and the kernels none of them names, or without a
 * shape library every kernel, in default_ns; "" or why not. */
std::string op_defs(const std::vector<Kernel> &kernels, const char *lib, const char *shape_lib,
                    const char *default_ns, void **shape_handle, std::vector<OpDef> *defs)
{
	if (!default_ns)
		default_ns = "";
	if (!shape_lib)
		return derived_defs(kernels, default_ns, lib, defs);
	std::string err = collect_shape(shape_lib, shape_handle, defs);
	for (size_t i = 0; i < defs->size() && err.empty(); i++)
		err = name_arguments(kernels, lib, &(*defs)[i]);
	if (!err.empty())
		return err;
	/* A kernel no m.def names (a Q7_KERNEL beside them) is an op too,
	 * without a shape function, in the blocks' namespace when they have
	 * one. */
	std::string ns = (*defs)[0].ns;
	for (const OpDef &d : *defs)
		if (d.ns != (*defs)[0].ns)
			ns.clear();
	return derived_defs(kernels, default_ns, lib, defs, ns);
}

/* The load, the table lock held, into *out: "" or why not. */
std::string load_locked(const char *lib, const char *shape_lib, const char *target, unsigned cores,
                        const char *default_ns, int isolate, double timeout_s, Loaded **out)
{
	FileId lib_id, shape_id;
	std::string err = file_id(lib, &lib_id);
	if (err.empty() && shape_lib)
		err = file_id(shape_lib, &shape_id);
	if (!err.empty())
		return err;
	for (const auto &l : table) {
		if (l->lib == lib_id && l->shape == shape_id && l->target == target) {
			const q7_target *t = q7_engine_target_row(l->engine->engine);
			if (l->isolate != isolate && t->can & Q7_TARGET_ISOLATE)
				return std::string(lib) + ": already loaded in this process " +
				       (l->isolate == 2   ? "sanitized (sanitize=True)"
				        : l->isolate ? "isolated (isolate=True)"
				                     : "in-process (isolate=False)") +
				       "; its ops are registered once per process";
			*out = l.get();
			return "";
		}
	}
	std::unique_ptr<Loaded> ld(new Loaded);
	ld->lib = lib_id;
	ld->shape = shape_id;
	ld->target = target;
	ld->isolate = isolate;
	q7_engine_opts o = {};
	o.target = target;
	o.cores = cores;
	o.host_mode = isolate == 2 ? Q7_HOST_SANITIZED : isolate ? Q7_HOST_ISOLATED : Q7_HOST_DIRECT;
	o.timeout_s = timeout_s;
	o.interrupted = &q7torch::interrupted;
	char msg[Q7_MESSAGE_SIZE];
	q7_err msg_err = {msg, sizeof msg, false};
	q7_engine *e = nullptr;
	if (q7_engine_open(lib, &o, &e, &msg_err) != 0)
		return msg;
	ld->engine = std::make_shared<Engine>();
	ld->engine->engine = e;
	int nops = q7_engine_list(e, &msg_err);
	if (nops < 0)
		return msg;
	std::vector<Kernel> kernels;
	for (unsigned i = 0; i < (unsigned)nops; i++)
		kernels.push_back({q7_engine_op_name(e, i), q7_engine_op_schema(e, i)});
	std::vector<OpDef> defs;
	err = op_defs(kernels, lib, shape_lib, default_ns, &ld->shape_handle, &defs);
	if (err.empty())
		err = register_defs(ld.get(), defs);
	if (err.empty()) {
		table.push_back(std::move(ld));
		*out = table.back().get();
	}
	return err;
}

} // namespace

extern "C" {

int q7t_api_version(void) { return Q7T_API_VERSION; }

const char *q7t_torch_version(void)
{
#define Q7T_STR2(x) #x
#define Q7T_STR(x) Q7T_STR2(x)
	return Q7T_STR(TORCH_VERSION_MAJOR) "." Q7T_STR(TORCH_VERSION_MINOR);
}

int q7t_cxx11_abi(void) { return _GLIBCXX_USE_CXX11_ABI; }

void *q7t_load(const char *lib, const char *shape_lib, const char *target, unsigned cores,
               const char *default_ns, int isolate, double timeout_s, char **err)
{
	std::string why;
	Loaded *ld = nullptr;
	try {
		std::lock_guard<std::mutex> g(table_lock);
		why = load_locked(lib, shape_lib, target ? target : "host", cores, default_ns, isolate,
		                  timeout_s, &ld);
	} catch (const std::exception &e) {
		why = e.what();
	}
	if (!ld && err)
		*err = dup(why.empty() ? std::string("unknown error") : why);
	return ld;
}

char *q7t_shape_defs(const char *shape_lib, char **err)
{
	std::string out, why;
	try {
		std::lock_guard<std::mutex> g(table_lock);
		void *handle = nullptr;
		std::vector<OpDef> defs;
		why = collect_shape(shape_lib, &handle, &defs);
		for (const OpDef &d : defs) {
			out += d.ns + "::" + d.name + "\t" + d.compute + "\t" + d.where;
			for (const c10::Argument &a : d.schema->arguments())
				out += "\t" + a.type()->str();
			out += "\n";
		}
		defs.clear(); /* before the library whose types they hold */
		if (handle)
			dlclose(handle);
	} catch (const std::exception &e) {
		why = e.what();
	}
	if (!why.empty()) {
		if (err)
			*err = dup(why);
		return nullptr;
	}
	return dup(out);
}

char *q7t_library(const char *lib, char **err)
{
	struct q7_strvec images = {nullptr, 0, 0};
	struct q7_err why = q7_err_growing();
	std::string out;
	try {
		if (q7_run_images(lib, 0, &images, &why) >= 0) {
			out = "{\"images\": [";
			for (size_t i = 0; i < images.n && !why.msg; i++) {
				unsigned machine = 0;
				int elf = q7_run_image_machine(images.v[i], &machine, &why);
				const q7_target *t = elf == 1 ? q7_run_machine_target(machine) : nullptr;
				out += std::string(i ? ", " : "") + "{\"path\": " + json_string(images.v[i]) +
				       ", \"machine\": " + (elf == 1 ? std::to_string(machine) : "null") +
				       ", \"target\": " + (t ? json_string(t->name) : "null") + "}";
			}
			out += "]}";
		}
	} catch (const std::exception &e) {
		if (!why.msg)
			q7_err_set(&why, nullptr, "%s", e.what());
	}
	q7_sv_free(&images);
	if (why.msg) {
		if (err)
			*err = dup(why.msg);
		q7_err_free(&why);
		return nullptr;
	}
	return dup(out);
}

char *q7t_targets(void)
{
	std::string s;
	const q7_target *t;
	for (size_t i = 0; (t = q7_target_at(i)); i++) {
		std::string can;
		for (auto w : {std::make_pair(Q7_TARGET_ISOLATE, "isolate"),
		               std::make_pair(Q7_TARGET_SANITIZE, "sanitize"),
		               std::make_pair(Q7_TARGET_PROFILE, "profile")})
			if (t->can & w.first)
				can += (can.empty() ? "" : ",") + std::string(w.second);
		s += std::string(t->name) + "\t" + std::to_string(t->machine) + "\t" + t->profile + "\t" +
		     can + "\n";
	}
	return dup(s);
}

char *q7t_ops(void *handle)
{
	std::string s;
	std::lock_guard<std::mutex> g(table_lock);
	for (const std::string &l : static_cast<Loaded *>(handle)->lines)
		s += l + "\n";
	return dup(s);
}

void q7t_check_uninit(void *handle, int on)
{
	std::lock_guard<std::mutex> g(table_lock);
	static_cast<Loaded *>(handle)->engine->check_uninit.store(on != 0, std::memory_order_relaxed);
}

void q7t_free(void *p) { std::free(p); }

void q7t_set_prefix(const char *prefix)
{
	std::lock_guard<std::mutex> g(table_lock);
	const char *env = std::getenv("Q7CC_PREFIX");
	if (prefix && *prefix && !(env && *env))
		q7_set_prefix(prefix);
}

void q7t_set_warn(void (*warn)(const char *))
{
	q7torch::warn_fn.store(warn);
}

} // extern "C"
