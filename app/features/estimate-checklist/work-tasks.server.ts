import { defineWorkTasks } from "~/server/work-pool/work-task";
import { checklistPdf } from "./checklist-pdf.server";

export const workTasks = defineWorkTasks({ checklistPdf });
