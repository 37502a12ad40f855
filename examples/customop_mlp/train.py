# Training, as the sample's train_cpu.py, on synthetic MNIST-shaped data
# (28x28 images, 10 classes; no download) that a model can learn: each
# class is a random prototype image, each sample its class's prototype
# plus noise, so the classes are separable and the loss falls. SGD over a
# few batches; each step's loss, then the final loss and the throughput.
import time

import torch

from model import MLP

torch.manual_seed(0)
batch, steps = 32, 20
prototypes = torch.randn(10, 28 * 28)
labels = torch.randint(0, 10, (steps * batch,))
images = prototypes[labels] + 0.5 * torch.randn(steps * batch, 28 * 28)

model = MLP()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
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
    print('Step {} loss {!r}'.format(i, loss.detach().item()))
print('Train throughput (iter/sec): {}'.format(steps / (time.time() - start)))
print('Final loss is {:0.4f}'.format(loss.detach().item()))
print('----------End Training ---------------')
