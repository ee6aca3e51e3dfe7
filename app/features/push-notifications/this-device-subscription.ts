/** What turning notifications on gave: the browser's subscription, or why there is none, in words for the page. */
export type DeviceSubscription = { ok: true; subscription: PushSubscriptionJSON } | { ok: false; problem: string };

/** How long turning notifications on waits for a staff app still being registered by the page that just opened. */
const REGISTRATION_WAIT_MS = 15_000;

/** The staff app's registration (scope /admin/), which the notifications are shown by. */
function staffAppRegistration() {
  return "serviceWorker" in navigator && "PushManager" in window
    ? navigator.serviceWorker.getRegistration("/admin/")
    : Promise.resolve(undefined);
}

/**
 * The staff app's registration, waited for when the page registers it only now (staff-app.tsx does it once the
 * page has opened, and a quick hand or a slow phone is there first): `ready` settles once it is active.
 */
async function staffAppRegistrationOnceRegistered(): Promise<ServiceWorkerRegistration | undefined> {
  if (!("serviceWorker" in navigator && "PushManager" in window)) return undefined;
  const registered = await navigator.serviceWorker.getRegistration("/admin/");
  if (registered) return registered;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const given = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), REGISTRATION_WAIT_MS);
  });
  return Promise.race([navigator.serviceWorker.ready, given]).finally(() => clearTimeout(timer));
}

/** The push address of this device's subscription, if it has one. */
export async function thisDeviceEndpoint(): Promise<string | undefined> {
  const registration = await staffAppRegistration().catch(() => undefined);
  const subscription = await registration?.pushManager.getSubscription().catch(() => null);
  return subscription?.endpoint;
}

/** Asks the browser for permission and a push subscription made with our VAPID public key (base64url). */
export async function subscribeThisDevice(publicKey: string): Promise<DeviceSubscription> {
  const registration = await staffAppRegistrationOnceRegistered().catch(() => undefined);
  if (!registration) {
    return {
      ok: false,
      problem:
        "This browser cannot show notifications from the staff app. On an iPhone or iPad, add the staff app to the home screen and open it from there.",
    };
  }
  if ((await Notification.requestPermission()) !== "granted") {
    return {
      ok: false,
      problem: "Notifications are blocked for this site. Allow them in the browser's site settings, then try again.",
    };
  }
  try {
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: publicKey,
    });
    return { ok: true, subscription: subscription.toJSON() };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problem: `The browser's push service did not answer (${reason}). Check that this device is online, then try again.`,
    };
  }
}

/** Ends this device's subscription in the browser too, so the push service stops taking pushes for it. */
export async function unsubscribeThisDevice(): Promise<void> {
  const registration = await staffAppRegistration().catch(() => undefined);
  const subscription = await registration?.pushManager.getSubscription().catch(() => null);
  await subscription?.unsubscribe().catch(() => false);
}
