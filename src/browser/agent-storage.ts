// The agent's memory of the visitor's fingerprint. It outlives the page in localStorage; where the
// browser blocks it, in sessionStorage (the tab) and a first-party cookie (other tabs), else in
// memory (this page). Its top level runs before the agent's try, so it only declares.

const memory: Record<string, string> = {};
// Values are [A-Za-z0-9_-], safe in a cookie as they are.
const cookie = {
  getItem: (k: string) => ('; ' + document.cookie).split('; ' + k + '=')[1],
  setItem: (k: string, v: string) => { document.cookie = k + '=' + v + ';path=/;max-age=34560000;SameSite=Lax'; },
};
const stores = [() => window.localStorage, () => window.sessionStorage, () => cookie];

export const recall = (k: string): string | null => {
  for (let i = 0; i < 3; i++) { try { const v = stores[i]().getItem(k); if (v) return v.split(';')[0]; } catch (e) {} }
  return memory[k] || null;
};

export const remember = (k: string, v: string): void => {
  memory[k] = v;
  for (let i = 0; i < 3; i++) { try { stores[i]().setItem(k, v); if (!i) return; } catch (e) {} }
};
