import { describe, expect, it, vi } from 'vitest';
import { watchCartChanges } from '../src/script/watch-cart.ts';

// A window with just what the watcher touches: fetch and XMLHttpRequest.prototype.open.
function fakeWindow() {
  const opened: string[] = [];
  class FakeXhr {
    listeners: Record<string, Array<() => void>> = {};
    open(_method: string, url: string) {
      opened.push(url);
    }
    addEventListener(type: string, listener: () => void) {
      (this.listeners[type] ??= []).push(listener);
    }
    finish() {
      for (const listener of this.listeners.loadend ?? []) listener();
    }
  }
  const fetched: string[] = [];
  const win = {
    fetch: vi.fn(async (input: RequestInfo | URL) => {
      fetched.push(String(input));
      return new Response('{}');
    }),
    XMLHttpRequest: FakeXhr,
  };
  return { win: win as unknown as Window & typeof globalThis, fetched, opened, FakeXhr };
}

describe('watchCartChanges (the page\'s own cart calls start a pass)', () => {
  it('reports a page fetch to /cart/add.js once it has completed, and not reads', async () => {
    const { win, fetched } = fakeWindow();
    const onChange = vi.fn();
    watchCartChanges(win, onChange);
    await win.fetch('/cart/add.js', { method: 'POST' });
    await win.fetch('/cart.js');
    await win.fetch(new URL('https://shop.example/en/cart/change.js'));
    await Promise.resolve();
    expect(fetched).toEqual(['/cart/add.js', '/cart.js', 'https://shop.example/en/cart/change.js']);
    expect(onChange.mock.calls).toEqual([['add'], ['other']]);
  });

  it("never reports the script's own calls, made with the fetch it returns", async () => {
    const { win } = fakeWindow();
    const onChange = vi.fn();
    const own = watchCartChanges(win, onChange);
    await own('/cart/add.js', { method: 'POST' });
    await own('/cart/change.js', { method: 'POST' });
    await Promise.resolve();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('reports an XMLHttpRequest to /cart/update.js or /cart/clear.js when it ends', () => {
    const { win, opened } = fakeWindow();
    const onChange = vi.fn();
    watchCartChanges(win, onChange);
    const xhr = new win.XMLHttpRequest() as unknown as { open(m: string, u: string): void; finish(): void };
    xhr.open('POST', '/cart/update.js');
    expect(onChange).not.toHaveBeenCalled();
    xhr.finish();
    expect(onChange.mock.calls).toEqual([['other']]);
    const read = new win.XMLHttpRequest() as unknown as { open(m: string, u: string): void; finish(): void };
    read.open('GET', '/cart.js');
    read.finish();
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(opened).toEqual(['/cart/update.js', '/cart.js']);
  });
});
