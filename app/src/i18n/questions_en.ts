/**
 * English strings of the agent's questions (`ask_user`) and its plan: the question card in
 * the feed, the waiting label, and the plan pinned above the composer.
 *
 * @module
 */
export const questionsEn = {
  "question.title": "The agent asks",
  "question.titleResolved": "Question",
  "question.answerLabel": "Your answer",
  "question.send": "Send answer",
  "question.decline": "Decline to answer",
  "question.pickSeveral": "Pick one or more, then send",
  "question.keysText": "Keys: Enter sends · Shift+Enter adds a line",
  "question.keysChoices": "Keys: Tab moves between the choices · Enter picks one",
  "question.keysSeveral": "Keys: Tab moves between the choices · Space ticks one",
  "question.answered": "Answered: {answer}",
  "question.declined": "Declined to answer",
  "question.declinedMessage": "Declined: “{message}”",
  "question.cancelled": "Cancelled: the run ended before an answer",
  "progress.waitingQuestion": "Waiting for your answer",
  "question.waiting": "waiting for your answer",
  "sidebar.question": "The agent asks a question and waits for your answer",
  "sidebar.questionBadge": "question",
  "plan.label": "Plan",
  "plan.progress": "{done} of {total} done",
  "plan.status.pending": "to do",
  "plan.status.in_progress": "in progress",
  "plan.status.done": "done",
  "plan.expand": "Show the plan",
  "plan.collapse": "Hide the plan",
};
