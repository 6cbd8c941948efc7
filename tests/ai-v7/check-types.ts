// Type-checks wabash/ai against the AI SDK v7's own types (tests/js/ai-v7.test.mjs
// runs tsc on it): the tools are a v7 ToolSet, and createSandboxSession's
// result is v7's Experimental_SandboxSession.
import { generateText, stepCountIs, type Experimental_SandboxSession, type LanguageModel, type ToolSet } from "ai";
import { Bash } from "wabash";
import { createBashTools, createSandboxSession, type BashTools } from "wabash/ai";

const bash = new Bash();
const tools: BashTools = await createBashTools({ bash });
const set: ToolSet = tools;
const session: Experimental_SandboxSession = await createSandboxSession(bash);
declare const model: LanguageModel;
export const run = () => generateText({ model, tools, experimental_sandbox: session, stopWhen: stepCountIs(5), prompt: "p" });
export { set };
// @ts-expect-error the v7 Tool type is real, not `any`
tools.bash.notAToolField.x;
