import { useEffect, useState } from "react";
import { StaffSection } from "~/components/staff/staff-section";
import type { PushSettings } from "./push-settings.server";
import { ThisDeviceSettings } from "./this-device-settings";
import { thisDeviceEndpoint } from "./this-device-subscription";
import { YourDevices } from "./your-devices";

/**
 * The settings page's push notifications: this device turned on or off, with the forms it hears of, and the
 * person's devices. Subscribing needs the browser (its push service); everything else is a plain form.
 */
export function PushNotificationsSection({ settings }: { settings: PushSettings }) {
  const [endpoint, setEndpoint] = useState<string>();
  useEffect(() => {
    void thisDeviceEndpoint().then(setEndpoint);
  }, []);
  const thisDevice = settings.devices.find((device) => device.endpoint === endpoint);
  return (
    <StaffSection headingId="push-heading" title="Push notifications" className="mt-8">
      <p className="mt-2 text-slate-700">
        A notification on this device when something new comes in, with the caller's number to ring back. Each device
        has its own choice.
      </p>
      <ThisDeviceSettings settings={settings} thisDevice={thisDevice} onSubscribed={setEndpoint} />
      <YourDevices devices={settings.devices} forms={settings.forms} thisDevice={thisDevice} />
    </StaffSection>
  );
}
