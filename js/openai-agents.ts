/**
 * `wabash/openai-agents`: the sandbox as OpenAI Agents SDK function tools
 * (`@openai/agents`, an optional peer dependency).
 *
 * ```ts
 * import { Agent, run } from "@openai/agents";
 * import { Bash } from "wabash";
 * import { createOpenAIAgentsTools } from "wabash/openai-agents";
 * const tools = await createOpenAIAgentsTools({ bash: new Bash() });
 * const agent = new Agent({ name: "shell", instructions: "...", tools });
 * ```
 */
import { tool, type FunctionTool } from "@openai/agents";
import { createAgentTools, type AgentTool, type AgentToolsOptions, type InputSchema } from "./agent-tools.js";

export { describeSandbox, type DescribeOptions, type DescribedMount } from "./describe.js";
export type { AgentToolsOptions } from "./agent-tools.js";

/** The OpenAI tool names (snake case, as the SDK's own tools are named). */
const NAMES = { bash: "bash", readFile: "read_file", writeFile: "write_file", listFiles: "list_files" } as const;

/** A tool input schema in OpenAI's strict form. */
export interface StrictSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
}

/** The function tools {@link createOpenAIAgentsTools} makes. */
export type SandboxFunctionTool = FunctionTool<unknown, StrictSchema, unknown>;

/**
 * The input schema in OpenAI's strict form: every property required, the
 * optional ones nullable (the tools read null as "not given").
 */
function strictSchema(schema: InputSchema): StrictSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    properties[name] = schema.required.includes(name) ? { ...property } : { ...property, type: [property.type, "null"] };
  }
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

/** One framework-neutral tool as an Agents SDK function tool returning text. */
function toFunctionTool(agentTool: AgentTool<unknown, unknown>): SandboxFunctionTool {
  return tool({
    name: NAMES[agentTool.name],
    description: agentTool.description,
    parameters: strictSchema(agentTool.inputSchema),
    strict: true,
    execute: async (input: unknown) => agentTool.format(await agentTool.execute(input as never)),
    // The model sees what went wrong (a missing file...), not a generic message.
    errorFunction: (_context: unknown, error: unknown) => (error instanceof Error ? error.message : String(error)),
  });
}

/**
 * The sandbox's tools for an `Agent`: `bash`, `read_file`, `write_file`
 * and `list_files` over one `Bash` whose state persists across calls, in
 * strict mode, returning text (a script's stdout, then `[stderr]` and
 * `[exit code N]`).
 */
export async function createOpenAIAgentsTools(options: AgentToolsOptions): Promise<SandboxFunctionTool[]> {
  const tools = await createAgentTools(options);
  return [tools.bash, tools.readFile, tools.writeFile, tools.listFiles].map((agentTool) =>
    toFunctionTool(agentTool as AgentTool<unknown, unknown>),
  );
}
