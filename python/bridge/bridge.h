/* q7cc's PyTorch bridge (libq7torch.so): registers the ops of a kernel
 * library built by q7cc in PyTorch's dispatcher, as CPU kernels that run
 * the compute function through the run engine (run/engine.h) on
 * the host or on the emulated core. Built against the real libtorch and
 * loaded privately (RTLD_LOCAL) by q7cc.torch through ctypes; its C API
 * is all it exports.
 *
 * Registered ops stay registered for the life of the process (PyTorch
 * keeps handles to them in Python), and so do the libraries they run. */
#ifndef Q7_TORCH_BRIDGE_H
#define Q7_TORCH_BRIDGE_H

#ifdef __cplusplus
extern "C" {
#endif
/* What libq7torch.so exports (bridge.map), built with hidden visibility. */
#pragma GCC visibility push(default)

/* The bridge's C API version (q7cc.torch checks it). */
#define Q7T_API_VERSION 7
int q7t_api_version(void);
/* The libtorch it was built against, "1.13". */
const char *q7t_torch_version(void);
/* The C++ ABI it was built with (_GLIBCXX_USE_CXX11_ABI, 0 or 1): a torch
 * of the same version built with the other one needs another bridge. */
int q7t_cxx11_abi(void);

/* Loads lib (an image or a multicore manifest, as q7cc linked it) for
 * target (a name q7t_targets lists: "host", "emulated") on its cores (0: the library's), on the
 * host in this process, or with isolate 1 in a process of its own (the
 * run engine's isolated mode: a kernel that faults, exits or never
 * returns fails its call instead of the process), or with isolate 2 each
 * call in a `q7-run --sanitize` of its own (the sanitized mode: a library
 * built with -fsanitize=address,undefined), each call (isolated or
 * emulated) limited to timeout_s seconds (0: the engine's default, model/call_limits.h), and
 * registers its ops:
 * - with shape_lib (the shape sources built against libtorch with the
 *   host <torchneuron/register.h>): the ops its NEURON_LIBRARY blocks
 *   define, shaped by their shape functions;
 * - without (NULL): every op of lib, with the schema q7cc derived, in its
 *   namespace (default_ns when the schema has none), the output shaped
 *   like the first tensor argument.
 * Loading the same files again for the same target returns the same
 * handle (and refuses another isolate). Returns a handle, or NULL with
 * *err set to a message (q7t_free it). */
void *q7t_load(const char *lib, const char *shape_lib, const char *target, unsigned cores,
               const char *default_ns, int isolate, double timeout_s, char **err);
/* What shape_lib's NEURON_LIBRARY blocks define, without registering it:
 * one "ns::op<TAB>compute function<TAB>file:line of the m.def" line each,
 * then a <TAB> and a type ("Tensor", "float") per argument of the op's
 * schema as torch reads it (custom_op.load checks them against the
 * kernels: no second schema parser), or NULL with *err set. The caller
 * frees the text (or *err) with q7t_free. */
char *q7t_shape_defs(const char *shape_lib, char **err);
/* What lib is, read as the run engine reads it (a multicore manifest by
 * model/manifest's codec, an image's ELF machine by run/run_image.c), without
 * loading it: JSON text {"images": [{"path": ..., "machine": 62,
 * "target": "host"}, ...]}, a manifest's images in core order, else lib
 * alone; machine its ELF machine and target the run target whose images
 * have it (q7t_targets' name), both null when it is not ELF (the load
 * says what it is) and target null when no target's. NULL with *err
 * "<file>: <why>" when lib cannot be read or is a damaged manifest. The
 * caller frees the text (or *err) with q7t_free. */
char *q7t_library(const char *lib, char **err);
/* The run targets (run/target.h's table), the default first: one
 * "name<TAB>ELF machine<TAB>q7cc profile<TAB>can" line each, can the
 * words it can do, comma-separated ("isolate,sanitize", "profile", or
 * empty). The caller frees the text with q7t_free. */
char *q7t_targets(void);
/* The handle's ops, one "ns::op<TAB>schema<TAB>compute function" line
 * each. The caller frees the text with q7t_free. */
char *q7t_ops(void *handle);
/* handle's ops from now on (on: 1) run each call twice, the fresh output
 * filled with two patterns, and fail naming the first element whose
 * result differs (the run engine's uninitialised-output check,
 * docs/runtime.md); on 0 turns it off. */
void q7t_check_uninit(void *handle, int on);
void q7t_free(void *p);
/* How the runtime's warnings reach the user (the message, NUL-terminated;
 * called on the thread of the op's call). NULL: c10's TORCH_WARN. */
void q7t_set_warn(void (*warn)(const char *message));

/* q7cc's prefix (where the emulated core's boot program is), as the
 * package knows it: a bridge built on first use lives in a cache, not
 * under the prefix (q7cc.torch calls it as it loads the bridge).
 * Q7CC_PREFIX wins; without either, the run engine's (support/path.c). */
void q7t_set_prefix(const char *prefix);
/* An instruction profile of the emulated ops' calls (q7cc.torch.profile,
 * profile.cpp): start opens it (one at a time; -1 with *err set when one
 * is open); stop closes it and writes path (.folded or .svg; NULL: drops
 * it) in the device view (profiler/device_view.h), or as emulated when raw is
 * nonzero, 0 or -1 with *err set (q7t_free it); *ops (when ops is not
 * NULL; q7t_free it) gets a line per op, "op\tcalls\tdevice\traw\n" (its
 * instructions in both views). */
int q7t_profile_start(char **err);
int q7t_profile_stop(const char *path, int raw, char **ops, char **err);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
