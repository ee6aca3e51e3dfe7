/**
 * The route handle of a layout that draws the staff frame itself; the root layout then leaves out the public
 * site's header, call bar and footer.
 */
export const staffFrameHandle = { frame: "staff" } as const;

export function usesStaffFrame(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && "frame" in handle && handle.frame === "staff";
}
