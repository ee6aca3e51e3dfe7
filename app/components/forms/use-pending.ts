import { useNavigation } from "react-router";

type Submitting = { state: "idle" | "submitting" | "loading"; formData?: FormData };

/**
 * Whether a form's post is on its way: the page's navigation, or a fetcher's when given. With `intent`, only
 * a post of that intent counts, so one busy button among several says so alone. Following a link is not a post.
 */
export function usePending(intent?: string, fetcher?: Submitting): boolean {
  const navigation = useNavigation();
  const source: Submitting = fetcher ?? navigation;
  if (source.state === "idle" || source.formData === undefined) return false;
  return intent === undefined || source.formData.get("intent") === intent;
}
