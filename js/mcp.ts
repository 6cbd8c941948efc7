/**
 * `wabash/mcp`: the sandbox as a Model Context Protocol server
 * (`@modelcontextprotocol/sdk`, an optional peer dependency), with the tools
 * `bash`, `read_file`, `write_file` and `list_files`. One server is one
 * session: one `Bash`, its state kept across calls. `wabash mcp` serves it
 * over stdio.
 *
 * ```ts
 * import { Bash } from "wabash";
 * import { serveStdio } from "wabash/mcp";
 * await serveStdio({ bash: new Bash() });
 * ```
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createAgentTools, type AgentTool, type AgentToolsOptions } from "./agent-tools.js";
import { Bash } from "./node.js";

export { describeSandbox, type DescribeOptions, type DescribedMount } from "./describe.js";
export type { AgentToolsOptions } from "./agent-tools.js";

/** Options of {@link createMcpServer}: the tools' options and the server's name. */
export interface McpServerOptions extends AgentToolsOptions {
  /** The server's name in the MCP handshake (default `wabash`). */
  name?: string;
  /** The server's version in the handshake (default the package's). */
  version?: string;
}

/** The package version the server reports. */
const VERSION = "0.1.0";

/** The MCP names of the tools (snake case, as MCP servers usually name them). */
const MCP_NAMES = { bash: "bash", readFile: "read_file", writeFile: "write_file", listFiles: "list_files" } as const;

/** Runs one tool for an MCP call: text content, `isError` for a failed call or a non-zero exit. */
async function call(agentTool: AgentTool<unknown, unknown>, input: unknown, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const output = await agentTool.execute(input as never, signal);
    const failed = agentTool.name === "bash" && (output as { exitCode: number }).exitCode !== 0;
    return { content: [{ type: "text", text: agentTool.format(output) }], ...(failed ? { isError: true } : {}) };
  } catch (error) {
    return { content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }], isError: true };
  }
}

/**
 * An MCP server (not yet connected) whose tools act on `options.bash`.
 * Connect it to a transport with `server.connect(transport)`.
 */
export async function createMcpServer(options: McpServerOptions): Promise<Server> {
  const tools = await createAgentTools(options);
  const list = [tools.bash, tools.readFile, tools.writeFile, tools.listFiles] as AgentTool<unknown, unknown>[];
  const byName = new Map<string, AgentTool<unknown, unknown>>(list.map((agentTool) => [MCP_NAMES[agentTool.name], agentTool]));
  const server = new Server(
    { name: options.name ?? "wabash", version: options.version ?? VERSION },
    {
      capabilities: { tools: {} },
      instructions: tools.bash.description.slice(tools.bash.description.indexOf("\n\n") + 2),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...byName].map(([name, agentTool]) => ({ name, description: agentTool.description, inputSchema: agentTool.inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const agentTool = byName.get(request.params.name);
    if (agentTool === undefined) {
      return { content: [{ type: "text", text: `unknown tool: ${request.params.name}` }], isError: true };
    }
    return call(agentTool, request.params.arguments ?? {}, extra.signal);
  });
  return server;
}

/** A running stdio server. */
export interface StdioServer {
  /** The MCP server. */
  server: Server;
  /** Resolves when the client has gone (standard input ended) or {@link StdioServer.close} was called. */
  closed: Promise<void>;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Serves the sandbox over standard input and output until the client closes
 * its end. Without `options.bash`, a new `Bash` with default options.
 */
export async function serveStdio(options: Partial<McpServerOptions> = {}): Promise<StdioServer> {
  const bash = options.bash ?? new Bash();
  const server = await createMcpServer({ ...options, bash });
  const transport = new StdioServerTransport();
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  server.onclose = () => finish();
  const close = async (): Promise<void> => {
    process.stdin.off("end", onEnd);
    await server.close();
    finish();
  };
  const onEnd = (): void => {
    void close();
  };
  process.stdin.on("end", onEnd);
  await server.connect(transport);
  return { server, closed, close };
}
