// A console page as a browser asks for it, and a console form as a same-origin browser posts it.
import type { Harness } from './emulator.js';

export const page = async (h: Harness, path: string, headers: Record<string, string> = {}) => {
  const res = await h.request(path, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
  return { status: res.status, text: await res.text(), headers: res.headers };
};

export const form = (h: Harness, path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  h.request(path, { method: 'POST', body: new URLSearchParams(body), headers: { origin: 'http://localhost', host: 'localhost', ...headers }, redirect: 'manual' });
