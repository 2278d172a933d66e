// The page's marked forms: an element with data-vtr-site-key marks its form, which gets the probe
// id as a hidden probe_id input.

/** Without data-site-key on the script tag, a form's data-vtr-site-key names the site. */
export const keyFromForm = (): string | null => {
  const marked = document.querySelector('[data-vtr-site-key]');
  return marked ? marked.getAttribute('data-vtr-site-key') : null;
};

export const markedForms = (): HTMLFormElement[] => {
  const out: HTMLFormElement[] = [], els = document.querySelectorAll<HTMLElement>('[data-vtr-site-key]');
  for (let i = 0; i < els.length; i++) {
    const el = els[i];
    const f = el.tagName === 'FORM' ? el as HTMLFormElement : (el.closest ? el.closest('form') : (el as HTMLInputElement).form);
    if (f && out.indexOf(f) < 0) out.push(f);
  }
  return out;
};

export const fill = (f: HTMLFormElement, probe: string | null): void => {
  if (!probe) return;
  let input = f.querySelector<HTMLInputElement>('input[name="probe_id"]');
  if (!input) {
    input = document.createElement('input');
    input.type = 'hidden'; input.name = 'probe_id';
    f.appendChild(input);
  }
  input.value = probe;
};
