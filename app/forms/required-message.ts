export { REQUIRED_MESSAGE } from "~/content/required-message";
