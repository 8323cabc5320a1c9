/**
 * OpenAI chat completions → the Bedrock Converse API (`POST /model/<id>/converse`,
 * `/converse-stream`) and back, for every model that is not Claude.
 *
 * Documented choices:
 * - System and developer messages anywhere go to `system` as text blocks. Consecutive turns of one
 *   role are merged (Converse wants user and assistant to alternate); tool results are user turns
 *   holding `toolResult` blocks, first in their turn.
 * - Images and documents must be inline (base64 data URLs): Converse takes bytes or S3 locations,
 *   not web URLs, and this translation fetches nothing. An https image URL is refused by naming
 *   the field.
 * - `tool_choice`: auto → `{auto:{}}`, required → `{any:{}}`, a function → `{tool:{name}}`. Converse
 *   has no "none": the tools are left out, unless the conversation already holds tool calls or
 *   results (Converse then demands `toolConfig`), where they stay with no `toolChoice`.
 * - `top_k` (when the client sends it) goes in `additionalModelRequestFields`, the only place
 *   Converse takes model-specific parameters. Dropped, for Converse has no equivalent: n, seed,
 *   presence/frequency penalties, response_format, parallel_tool_calls, reasoning_effort (thinking
 *   switches are model-specific), and assistant `reasoning_content` (no signature to send it with).
 * - Usage: Converse's `inputTokens` leaves out cache reads and writes, so the prompt is the sum of
 *   the three, as with Anthropic.
 */

export * from './converse-answer.js';
export * from './converse-request.js';
export * from './converse-stream.js';
