/**
 * `wabash/langchain`: the sandbox as LangChain tools (`@langchain/core`, an
 * optional peer dependency), for LangChain and LangGraph agents.
 *
 * ```ts
 * import { Bash } from "wabash";
 * import { createLangChainTools } from "wabash/langchain";
 * const tools = await createLangChainTools({ bash: new Bash() });
 * const model = chatModel.bindTools(tools);
 * ```
 */
import { DynamicStructuredTool } from "@langchain/core/tools";
import { createAgentTools, type AgentTool, type AgentToolsOptions } from "./agent-tools.js";

export { describeSandbox, type DescribeOptions, type DescribedMount } from "./describe.js";
export type { AgentToolsOptions } from "./agent-tools.js";

/** The LangChain tool names (snake case, as LangChain's own tools are named). */
const NAMES = { bash: "bash", readFile: "read_file", writeFile: "write_file", listFiles: "list_files" } as const;

/** One framework-neutral tool as a LangChain structured tool returning text. */
function toLangChainTool(agentTool: AgentTool<unknown, unknown>): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: NAMES[agentTool.name],
    description: agentTool.description,
    schema: agentTool.inputSchema,
    func: async (input: unknown) => {
      try {
        return agentTool.format(await agentTool.execute(input as never));
      } catch (error) {
        // The model reads what went wrong and can correct itself; an
        // exception would end most agent loops.
        return `Error: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  });
}

/**
 * The sandbox's tools for a LangChain model or agent: `bash`, `read_file`,
 * `write_file` and `list_files` over one `Bash` whose state persists across
 * calls, each returning text (a script's stdout, then `[stderr]` and
 * `[exit code N]`).
 */
export async function createLangChainTools(options: AgentToolsOptions): Promise<DynamicStructuredTool[]> {
  const tools = await createAgentTools(options);
  return [tools.bash, tools.readFile, tools.writeFile, tools.listFiles].map((agentTool) =>
    toLangChainTool(agentTool as AgentTool<unknown, unknown>),
  );
}
