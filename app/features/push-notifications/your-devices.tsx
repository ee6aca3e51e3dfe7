import { Form, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { PUSH_INTENTS } from "./push-schema";
import type { PushActionResult, PushDevice, PushFormChoice } from "./push-settings.server";

/** One of the person's devices, with a test notification and a way to stop it (plain forms, no script needed). */
function DeviceRow({
  device,
  forms,
  isThisDevice,
}: {
  device: PushDevice;
  forms: PushFormChoice[];
  isThisDevice: boolean;
}) {
  const labels = forms.filter((form) => device.formTypes.includes(form.type)).map((form) => form.label);
  return (
    <li className="rounded-lg border border-slate-300 p-4" aria-label={device.name}>
      <p className="font-semibold text-slate-900">
        {device.name}
        {isThisDevice ? " (this device)" : ""}
      </p>
      <p className="text-sm text-slate-700">
        Since {device.since}. {labels.length > 0 ? `Hears of: ${labels.join(", ")}.` : "Hears of no form."}
      </p>
      <div className="mt-2 flex flex-wrap gap-3">
        {[
          { intent: PUSH_INTENTS.test, label: "Send a test notification" },
          { intent: PUSH_INTENTS.remove, label: "Remove" },
        ].map(({ intent, label }) => (
          <Form key={intent} method="post">
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name="endpoint" value={device.endpoint} />
            <button type="submit" className="button-secondary">
              {label}
            </button>
          </Form>
        ))}
      </div>
    </li>
  );
}

/** Every device of the person's that gets notifications, and the answer to the last thing done to one. */
export function YourDevices({
  devices,
  forms,
  thisDevice,
}: {
  devices: PushDevice[];
  forms: PushFormChoice[];
  thisDevice: PushDevice | undefined;
}) {
  const answer = useActionData<PushActionResult>();
  return (
    <>
      <h3 className="mt-6 text-lg font-bold text-slate-900">Your devices</h3>
      <OutcomeAlert outcome={answer?.intent?.startsWith("push-") ? answer : undefined} className="mt-2" />
      {devices.length === 0 ? (
        <p className="mt-2 text-slate-700">No device gets notifications yet.</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {devices.map((device) => (
            <DeviceRow key={device.id} device={device} forms={forms} isThisDevice={device === thisDevice} />
          ))}
        </ul>
      )}
    </>
  );
}
