/**
 * Dify's `GET /parameters` answer: the app's settings a Dify front end reads before the
 * first message (opening statement, suggested questions, the input form). The defaults
 * are an app with none of them, as both the runtime's gateway and `createServer` answer.
 *
 * @module
 */

/** `GET /parameters`'s body (WIRE.md §1). */
export interface DifyParameters {
  /** Shown before the first message. */
  opening_statement: string;
  /** Questions a front end offers to start with. */
  suggested_questions: string[];
  /** Whether follow-up questions are suggested after an answer. */
  suggested_questions_after_answer: { enabled: boolean };
  /** Whether voice input is offered. */
  speech_to_text: { enabled: boolean };
  /** Whether answers cite retrieved sources. */
  retriever_resource: { enabled: boolean };
  /** Whether annotated replies are on. */
  annotation_reply: { enabled: boolean };
  /** The app's input variables (Dify's form items, e.g. `{"text-input": {label, variable, required}}`). */
  user_input_form: Record<string, unknown>[];
  /** What files a user may attach. */
  file_upload: Record<string, unknown>;
  /** System limits (e.g. `file_size_limit`). */
  system_parameters: Record<string, unknown>;
}

/** An app with no opening statement, suggestions, form or uploads. */
export const DIFY_DEFAULT_PARAMETERS: Readonly<DifyParameters> = Object.freeze({
  opening_statement: "",
  suggested_questions: [],
  suggested_questions_after_answer: { enabled: false },
  speech_to_text: { enabled: false },
  retriever_resource: { enabled: false },
  annotation_reply: { enabled: false },
  user_input_form: [],
  file_upload: { image: { enabled: false, number_limits: 0, transfer_methods: [] } },
  system_parameters: { file_size_limit: 0 },
});
