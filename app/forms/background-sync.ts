/** The Background Sync tag that wakes the staff app's pages to send the forms waiting on the device. */
export const SEND_WAITING_FORMS = "send-waiting-forms";

/** Asks the staff app's worker to be woken with `tag` once the signal is back, where the browser has Background Sync. */
export async function registerBackgroundSync(tag: string): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration("/admin/").catch(() => undefined);
  const sync = (registration as { sync?: { register: (tag: string) => Promise<void> } } | undefined)?.sync;
  await sync?.register(tag).catch(() => undefined);
}
