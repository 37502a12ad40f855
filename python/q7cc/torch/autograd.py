"""Autograd for an op from its backward kernels, with no hand-written
torch.autograd.Function (docs/torch.md, "Backward kernels"). torch 2.x
registers it with torch.library.register_autograd (so torch.compile and
opcheck see it); torch 1.13, which has none, gets the same as a Python
Autograd kernel."""
import torch

# torch 1.13's registrations live as long as their Library objects.
_kept = []


def _overload(op):
    """"ns::name", torch.ops.ns.name or torch.ops.ns.name.default: the
    op's default overload."""
    if isinstance(op, str):
        ns, sep, name = op.partition("::")
        if not sep or not ns or not name:
            raise ValueError("q7cc.torch: %r: an op is named \"namespace::name\"" % op)
        op = getattr(getattr(torch.ops, ns), name)
    if isinstance(op, torch._ops.OpOverloadPacket):
        op = op.default
    if not isinstance(op, torch._ops.OpOverload):
        raise TypeError("q7cc.torch: %r is not an op (\"ns::name\" or torch.ops.ns.name)" % (op,))
    return op


def _is_tensor(arg):
    return str(arg.type) == "Tensor"


def _backwards(fwd, backward):
    """The backward overloads, one per tensor argument of fwd (None: no
    gradient), each checked to take the output's gradient and fwd's
    arguments."""
    if backward is None or isinstance(backward, (str, torch._ops.OpOverloadPacket,
                                                 torch._ops.OpOverload)):
        backward = [backward]
    name = fwd._schema.name
    args = fwd._schema.arguments
    tensors = [i for i, a in enumerate(args) if _is_tensor(a)]
    if len(backward) > len(tensors):
        raise ValueError("q7cc.torch: %d backward ops for %s, which has %d tensor arguments"
                         % (len(backward), name, len(tensors)))
    ops = [None if b is None else _overload(b) for b in backward]
    for b in ops:
        if b is not None and len(b._schema.arguments) != len(args) + 1:
            raise ValueError("q7cc.torch: %s takes %d arguments; a backward of %s takes %d: the "
                             "output's gradient, then %s's arguments"
                             % (b._schema.name, len(b._schema.arguments), name, len(args) + 1,
                                name))
    return list(zip(tensors, ops))


def _formula(pairs, nargs):
    """setup_context and backward, as torch.library.register_autograd
    takes them: the forward's tensors saved, its other arguments kept."""
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*[a if isinstance(a, torch.Tensor) else None for a in inputs])
        ctx.q7_others = [None if isinstance(a, torch.Tensor) else a for a in inputs]

    def backward(ctx, grad):
        args = [s if o is None else o for s, o in zip(ctx.saved_tensors, ctx.q7_others)]
        grads = [None] * nargs
        for i, op in pairs:
            if op is not None and ctx.needs_input_grad[i]:
                grads[i] = op(grad.contiguous(), *args)
        return tuple(grads)
    return setup_context, backward


def _register_1x(fwd, setup_context, backward):
    """torch 1.13: a Python Autograd kernel around the op's own kernels."""
    class Formula(torch.autograd.Function):
        @staticmethod
        def forward(ctx, *args):
            # 1.13's guard is no context manager: in force while it lives
            below = torch._C._AutoDispatchBelowAutograd()
            try:
                out = fwd(*args)
            finally:
                del below
            setup_context(ctx, args, out)
            return out

        @staticmethod
        def backward(ctx, grad):
            return backward(ctx, grad)
    ns, name = fwd._schema.name.split("::")
    lib = torch.library.Library(ns, "IMPL")
    lib.impl(name, lambda *args: Formula.apply(*args), "Autograd")
    _kept.append(lib)


def register_backward(forward, backward):
    """Makes forward (an op of a loaded library: "ns::name" or
    torch.ops.ns.name) differentiable by backward: one op, or a list with
    one per tensor argument of forward (None where it has no gradient),
    each called as backward(grad, *forward's arguments) for that
    argument's gradient. Once per op and process."""
    fwd = _overload(forward)
    pairs = _backwards(fwd, backward)
    setup_context, formula = _formula(pairs, len(fwd._schema.arguments))
    if hasattr(torch.library, "register_autograd"):
        torch.library.register_autograd(fwd._schema.name, formula, setup_context=setup_context)
    else:
        _register_1x(fwd, setup_context, formula)
