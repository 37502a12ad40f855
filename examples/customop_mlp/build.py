# Builds librelu.so here, as the vendor's build.py does; only the import
# differs. The target is the host unless Q7CC_TORCH_TARGET=emulated.
import os

from q7cc.torch import custom_op  # was: from torch_neuronx.xla_impl import custom_op

custom_op.load(
    name='relu',
    compute_srcs=['relu.cpp'],
    shape_srcs=['shape.cpp'],
    build_directory=os.getcwd(),
)
