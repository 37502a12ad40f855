"""q7cc's Python side. q7cc.torch builds and registers GPSIMD custom
operators as real PyTorch ops (see q7cc.torch and docs/torch.md)."""
