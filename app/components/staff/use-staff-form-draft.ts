import { useMemo, useRef } from "react";
import { useRouteLoaderData } from "react-router";
import type { FormDraft } from "~/components/forms/form-draft";
import { useFormDraft } from "~/components/forms/use-form-draft";

/** The staff layout's route id, whose loader names the signed-in user for every staff screen. */
const STAFF_LAYOUT_ROUTE = "routes/admin/staff-layout";

/**
 * A staff form and its draft on the device, kept per signed-in user: the ref goes on the <form>, the draft to
 * its DraftStatus and FormOutcome.
 */
export function useStaffFormDraft(
  formType: string,
  answer: { status: string } | undefined,
  earlierDraft?: (userId: number) => Promise<FormDraft | undefined>,
) {
  const formRef = useRef<HTMLFormElement>(null);
  const userId = useRouteLoaderData<{ userId: number }>(STAFF_LAYOUT_ROUTE)?.userId;
  const findEarlier = useMemo(
    () => (earlierDraft && userId !== undefined ? () => earlierDraft(userId) : undefined),
    [earlierDraft, userId],
  );
  const draft = useFormDraft(formRef, `${formType}:${userId ?? "signed-out"}`, answer, findEarlier);
  return { formRef, draft };
}
