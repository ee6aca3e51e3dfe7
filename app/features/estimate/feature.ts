import { defineFeature } from "~/forms/feature-manifest";
import { estimateForm } from "./definition";

export const feature = defineFeature({
  forms: [estimateForm],
});
