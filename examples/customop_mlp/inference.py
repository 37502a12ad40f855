# Inference with the trained-from-scratch model: the class of a few
# synthetic images, and the throughput.
import time

import torch

from model import MLP

torch.manual_seed(1)
model = MLP()
model.eval()
images = torch.randn(64, 28 * 28)

print('----------Inference ---------------')
start = time.time()
with torch.no_grad():
    for _ in range(10):
        classes = model(images).argmax(dim=1)
print('Inf throughput (iter/sec): {}'.format(10 / (time.time() - start)))
print('Classes of the first eight images: {}'.format(classes[:8].tolist()))
print('----------End Inference ---------------')
