# Training, as the sample's train_cpu.py, on synthetic MNIST-shaped data
# (28x28 images, 10 classes; no download): SGD over a few batches, with
# the loss and the throughput at the end.
import time

import torch

from model import MLP

torch.manual_seed(0)
batch, steps = 32, 20
images = torch.randn(steps * batch, 28 * 28)
labels = torch.randint(0, 10, (steps * batch,))

model = MLP()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = torch.nn.NLLLoss()

print('----------Training ---------------')
start = time.time()
for i in range(steps):
    x = images[i * batch:(i + 1) * batch]
    y = labels[i * batch:(i + 1) * batch]
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
print('Train throughput (iter/sec): {}'.format(steps / (time.time() - start)))
print('Final loss is {:0.4f}'.format(loss.detach().item()))
print('----------End Training ---------------')
