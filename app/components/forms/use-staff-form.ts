import { useMemo, useRef } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { useDeviceForm } from "./use-device-form";

/** The staff layout's route id, whose loader names the signed-in user for every staff screen. */
const STAFF_LAYOUT_ROUTE = "routes/admin/staff-layout";

/**
 * A staff form's life on the device, for the signed-in user (useDeviceForm): the ref goes on the <form>, the
 * draft to its DraftStatus. It posts to its page unless `postsTo` names an endpoint that answers in JSON.
 */
export function useStaffForm(
  definition: { type: string; label: string; files?: readonly unknown[] },
  answer: { status: string; kept?: boolean } | undefined,
  { postsTo, onAfresh }: { postsTo?: string; onAfresh?: () => void } = {},
) {
  const formRef = useRef<HTMLFormElement>(null);
  const userId = useRouteLoaderData<{ userId: number }>(STAFF_LAYOUT_ROUTE)?.userId;
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
  const draft = useDeviceForm(formRef, info, userId, answer, onAfresh);
  // A form with files posts them as multipart, with JavaScript or without.
  return { formRef, draft, userId, multipart: (definition.files?.length ?? 0) > 0 };
}
