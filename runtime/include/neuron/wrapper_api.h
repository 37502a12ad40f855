/* <neuron/wrapper_api.h>: the interface between the generated dispatch
 * wrapper (wrapper.cpp, written by q7cc's codegen) and the runtime.
 *
 * Per op the wrapper defines <fn>_wrapper(), which unpacks the call's
 * arguments in order with customop_next_*(), calls the kernel and hands
 * the result to customop_return_tensor(), and <fn>_stack_switch(), the
 * launcher the runtime registers. Once per library it defines the four
 * functions below the marshalling ones, which the runtime's register_funcs
 * and entry point read. C++ linkage, as in the vendor runtime. */
#ifndef Q7_NEURON_WRAPPER_API_H
#define Q7_NEURON_WRAPPER_API_H

#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <neuron/stack_switch.hpp>

/* Starts unpacking the current call's arguments. */
void customop_setup(bool reset);
at::Tensor customop_next_tensor();
at::Scalar customop_next_scalar();
int customop_next_int();
float customop_next_float();
long long customop_next_longlong();
/* Kinds the open runtime adds. */
double customop_next_double();
bool customop_next_bool();
void customop_return_tensor(const at::Tensor &t);
void customop_cleanup();

typedef int (*wrapper_fn)();
int get_func_cnt();
char const *get_func_name(int i);
wrapper_fn get_func_ptr(int i);
/* The op's TorchScript schema, "relu(Tensor x, float a) -> Tensor" (the
 * vendor's words, "long long", "double", read too): the runtime checks a
 * call's arguments against its types and lists the ops with it. */
char const *get_func_schema(int i);

#endif
