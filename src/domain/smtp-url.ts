/** Whether `v` is a mail server URL the notifier can send through: smtp:// or smtps://. */
export function isSmtpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    return /^smtps?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}
