import { useEffect, useState } from "react";
import { Form, useActionData, useFetcher } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { choiceRowClass } from "~/components/forms/field-look";
import { StaffSection } from "~/components/staff/staff-section";
import { FORM_TYPE_FIELD, PUSH_INTENTS } from "./push-schema";
import type { PushActionResult, PushDevice, PushFormChoice, PushSettings } from "./push-settings.server";
import { subscribeThisDevice, thisDeviceEndpoint, unsubscribeThisDevice } from "./this-device-subscription";

function FormChoices({ forms, chosen }: { forms: PushFormChoice[]; chosen: (form: PushFormChoice) => boolean }) {
  return (
    <fieldset className="mt-3">
      <legend className="font-semibold text-slate-900">Tell me about new</legend>
      {forms.map((form) => (
        <label key={form.type} className={choiceRowClass}>
          <input
            type="checkbox"
            name={FORM_TYPE_FIELD}
            value={form.type}
            defaultChecked={chosen(form)}
            className="size-5 accent-brand-700"
          />
          {form.label}
        </label>
      ))}
    </fieldset>
  );
}

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

/**
 * The settings page's push notifications: this device turned on or off, with the forms it hears of, and the
 * person's devices. Subscribing needs the browser (its push service); everything else is a plain form.
 */
export function PushNotificationsSection({ settings }: { settings: PushSettings }) {
  const fetcher = useFetcher<PushActionResult>();
  const answer = useActionData<PushActionResult>();
  const [endpoint, setEndpoint] = useState<string>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    void thisDeviceEndpoint().then(setEndpoint);
  }, []);
  const thisDevice = settings.devices.find((device) => device.endpoint === endpoint);

  async function turnOn(form: HTMLFormElement) {
    setProblem(undefined);
    const result = await subscribeThisDevice(settings.publicKey);
    if (!result.ok) return setProblem(result.problem);
    const { endpoint: address = "", keys = {} } = result.subscription;
    const body = new FormData(form);
    body.set("intent", PUSH_INTENTS.subscribe);
    body.set("endpoint", address);
    body.set("p256dh", keys.p256dh ?? "");
    body.set("auth", keys.auth ?? "");
    setEndpoint(address);
    await fetcher.submit(body, { method: "post" });
  }

  const busy = fetcher.state !== "idle";
  return (
    <StaffSection headingId="push-heading" title="Push notifications" className="mt-8">
      <p className="mt-2 text-slate-700">
        A notification on this device when something new comes in, with the caller's number to ring back. Each device
        has its own choice.
      </p>
      {settings.forms.length === 0 ? (
        <p className="mt-2 text-slate-700">No form you may read sends notifications.</p>
      ) : (
        <fetcher.Form
          method="post"
          className="mt-2"
          onSubmit={(event) => {
            if (thisDevice) return;
            event.preventDefault();
            void turnOn(event.currentTarget);
          }}
        >
          <input type="hidden" name="endpoint" value={thisDevice?.endpoint ?? ""} />
          <FormChoices
            forms={settings.forms}
            chosen={(form) => (thisDevice ? thisDevice.formTypes.includes(form.type) : form.onByDefault)}
          />
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="submit" name="intent" value={PUSH_INTENTS.choose} className="button-primary" disabled={busy}>
              {thisDevice ? "Save this device's choices" : "Turn on notifications on this device"}
            </button>
            {thisDevice ? (
              <button
                type="submit"
                name="intent"
                value={PUSH_INTENTS.remove}
                className="button-secondary"
                disabled={busy}
                onClick={() => void unsubscribeThisDevice()}
              >
                Turn off on this device
              </button>
            ) : null}
          </div>
        </fetcher.Form>
      )}
      <OutcomeAlert
        outcome={problem ? { status: "error", message: problem } : fetcher.data}
        revealOn={problem ?? fetcher.data}
        className="mt-3"
      />
      <h3 className="mt-6 text-lg font-bold text-slate-900">Your devices</h3>
      <OutcomeAlert outcome={answer?.intent?.startsWith("push-") ? answer : undefined} className="mt-2" />
      {settings.devices.length === 0 ? (
        <p className="mt-2 text-slate-700">No device gets notifications yet.</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {settings.devices.map((device) => (
            <DeviceRow key={device.id} device={device} forms={settings.forms} isThisDevice={device === thisDevice} />
          ))}
        </ul>
      )}
    </StaffSection>
  );
}
