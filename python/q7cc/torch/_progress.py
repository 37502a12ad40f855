"""What a build is doing, while it runs: one line on a terminal, written
over as ninja's is and cut to the terminal's width; when it shows and
what it says, docs/torch.md, "The API". Any other message is written on
a line of its own above it."""
import os
import sys
import threading
import time

_write_lock = threading.Lock()


def _put(stream, text):
    """text in one write: lines of parallel steps never share a line."""
    with _write_lock:
        stream.write(text)
        stream.flush()


def write_line(text, stream=None):
    """text and its newline, in one write."""
    _put(stream or sys.stderr, text + "\n")


def _after():
    try:
        return max(0.0, float(os.environ.get("Q7CC_PROGRESS_AFTER", "2")))
    except ValueError:
        return 2.0


def _is_terminal(stream):
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


class Progress:
    """The line for one build of what (a library's file name). log: how
    other messages are written (a line each). Off unless enabled and
    stderr is a terminal."""

    def __init__(self, what, enabled, log=None, stream=None):
        self.what, self.stream = what, stream or sys.stderr
        self.plain = log or (lambda s: write_line(s, self.stream))
        self.on = enabled and _is_terminal(self.stream)
        self.t0, self.after = time.monotonic(), _after()
        self.total = self.done = 0
        self.running = []
        self.shown = False
        self.cond = threading.Condition()
        self.closed = False
        self.ticker = None
        if self.on:
            self.ticker = threading.Thread(target=self._tick, daemon=True)
            self.ticker.start()

    def log(self, text):
        """A message of its own, above the line."""
        if not self.on:
            self.plain(text)
            return
        with self.cond:
            self._erase()
            self.plain(text)
            self._draw()

    def expect(self, n):
        with self.cond:
            self.total += n
            self._draw()

    def run(self, step, *args):
        """step.run(*args), shown while it runs."""
        with self.cond:
            self.running.append(step.what)
            self._draw()
        try:
            step.run(*args)
        finally:
            with self.cond:
                self.running.remove(step.what)
                self.done += 1
                self._draw()

    def close(self, ok):
        """The build's end: the last line (or, failed, none: its error
        follows)."""
        with self.cond:
            self.closed = True
            self.cond.notify_all()
            if self.shown:
                self._erase()
                if ok:
                    _put(self.stream, "q7cc.torch: built %s: %d step%s in %.0f s\n" % (
                        self.what, self.done, "" if self.done == 1 else "s",
                        time.monotonic() - self.t0))
        if self.ticker:
            self.ticker.join()

    def _tick(self):
        with self.cond:
            while not self.closed:
                self._draw()
                self.cond.wait(0.5)

    def _draw(self):
        if not self.on or self.closed or time.monotonic() - self.t0 < self.after:
            return
        doing = ", ".join(self.running) or "waiting"
        text = "q7cc.torch: building %s [%d/%d] %s (%.0f s)" % (
            self.what, min(self.done + len(self.running), self.total), self.total, doing,
            time.monotonic() - self.t0)
        try:
            cols = os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            cols = 0
        cols = cols or 80  # a terminal that has no size yet
        if len(text) > cols - 1:
            text = text[:max(cols - 3, 0)] + ".."
        _put(self.stream, "\r" + text + "\x1b[K")
        self.shown = True

    def _erase(self):
        if self.shown:
            _put(self.stream, "\r\x1b[K")
