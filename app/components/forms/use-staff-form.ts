import { useCallback, useEffect, useMemo, useRef } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import type { FieldDefinition } from "~/forms/definition";
import { keepAnswers, keptAnswers } from "~/forms/kept-answers";
import { useDeviceForm } from "./use-device-form";
import { useSoftChecks } from "./use-soft-checks";

/** The staff layout's route id, whose loader names the signed-in user for every staff screen. */
const STAFF_LAYOUT_ROUTE = "routes/admin/staff-layout";

/**
 * A staff form's life on the device, for the signed-in user (useDeviceForm): the ref goes on the <form>, the
 * draft to its DraftStatus. It posts to its page unless `postsTo` names an endpoint that answers in JSON. Its
 * fields' soft checks hold the first send back with their warnings (useSoftChecks), and the answers of fields
 * `keptForNext` fill the person's next form when they are left empty.
 */
export function useStaffForm(
  definition: { type: string; label: string; files?: readonly unknown[]; fields?: readonly FieldDefinition[] },
  answer: { status: string; kept?: boolean } | undefined,
  { postsTo, onAfresh }: { postsTo?: string; onAfresh?: () => void } = {},
) {
  const formRef = useRef<HTMLFormElement>(null);
  const userId = useRouteLoaderData<{ userId: number }>(STAFF_LAYOUT_ROUTE)?.userId;
  const softChecks = useSoftChecks(definition.fields, answer);
  const keptNames = useMemo(
    () => (definition.fields ?? []).filter((field) => field.keptForNext).map((field) => field.name),
    [definition.fields],
  );
  const fillKept = useCallback(() => {
    const form = formRef.current;
    if (!form || userId === undefined || keptNames.length === 0) return;
    const kept = keptAnswers(definition.type, userId);
    for (const name of keptNames) {
      const control = form.elements.namedItem(name);
      // Set as the page's own value would be, without an input event: nothing is typed, so no draft is saved.
      if (control instanceof HTMLInputElement && control.value === "" && kept[name]) control.value = kept[name];
    }
  }, [definition.type, userId, keptNames]);
  useEffect(fillKept, [fillKept]);
  const afresh = useCallback(() => {
    fillKept();
    onAfresh?.();
  }, [fillKept, onAfresh]);
  /** On the press that sends: the answers kept for the next form. */
  const keepForNext = useCallback(
    (form: HTMLFormElement) => {
      if (userId === undefined || keptNames.length === 0) return;
      const data = new FormData(form);
      const answers = Object.fromEntries(
        keptNames.flatMap((name) => {
          const value = data.get(name);
          return typeof value === "string" && value.trim() !== "" ? [[name, value.trim()]] : [];
        }),
      );
      keepAnswers(definition.type, userId, answers);
    },
    [definition.type, userId, keptNames],
  );
  const { pathname } = useLocation();
  const info = useMemo(
    () => ({
      formType: definition.type,
      label: definition.label,
      page: pathname,
      action: postsTo ?? pathname,
      answeredInJson: postsTo !== undefined,
    }),
    [definition.type, definition.label, pathname, postsTo],
  );
  const draft = useDeviceForm(formRef, info, userId, answer, afresh);
  // A form with files posts them as multipart, with JavaScript or without.
  return { formRef, draft, userId, multipart: (definition.files?.length ?? 0) > 0, softChecks, keepForNext };
}
