import { useState } from "react";
import { useFetcher } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { choiceRowClass } from "~/components/forms/field-look";
import { FORM_TYPE_FIELD, PUSH_INTENTS } from "./push-schema";
import type { PushActionResult, PushDevice, PushFormChoice, PushSettings } from "./push-settings.server";
import { subscribeThisDevice, unsubscribeThisDevice } from "./this-device-subscription";

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

/** The form's choices with the browser's new subscription: what the server keeps to reach this device. */
function subscribeBody(form: HTMLFormElement, subscription: PushSubscriptionJSON) {
  const { endpoint = "", keys = {} } = subscription;
  const body = new FormData(form);
  body.set("intent", PUSH_INTENTS.subscribe);
  body.set("endpoint", endpoint);
  body.set("p256dh", keys.p256dh ?? "");
  body.set("auth", keys.auth ?? "");
  return body;
}

/**
 * This device's notifications: the forms it hears of, saved, or turned on (the browser subscribes first) or off.
 */
export function ThisDeviceSettings({
  settings,
  thisDevice,
  onSubscribed,
}: {
  settings: PushSettings;
  thisDevice: PushDevice | undefined;
  onSubscribed: (endpoint: string) => void;
}) {
  const fetcher = useFetcher<PushActionResult>();
  const [problem, setProblem] = useState<string>();

  async function turnOn(form: HTMLFormElement) {
    setProblem(undefined);
    const result = await subscribeThisDevice(settings.publicKey);
    if (!result.ok) return setProblem(result.problem);
    const body = subscribeBody(form, result.subscription);
    onSubscribed(result.subscription.endpoint ?? "");
    await fetcher.submit(body, { method: "post" });
  }

  const busy = fetcher.state !== "idle";
  return (
    <>
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
    </>
  );
}
