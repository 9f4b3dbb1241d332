/**
 * The GitOps tests' stand-in for GitHub's REST API (not GitHub): a loopback HTTP server that keeps
 * issues, their comments and labels in memory, answers a workflow run attempt's status from a table
 * the test sets, and records every request it receives, so that a test asserts what a workflow sent
 * to "GitHub". It answers the endpoints the workflows' commands use, in GitHub's shapes (pages with
 * `per_page`, `page` and a `Link` header); any other request is recorded and answered 404.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the stand-in received it. */
export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

export interface StandInComment {
  id: number;
  body: string;
}

export interface StandInIssue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  labels: string[];
  comments: StandInComment[];
  pull_request?: { url: string };
}

/** A run attempt's status as GitHub reports it (`GET …/actions/runs/{id}/attempts/{n}`). */
export interface RunAttemptStatus {
  status: "queued" | "in_progress" | "completed";
  conclusion: "success" | "failure" | "cancelled" | null;
}

const json = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
};

export class GitHubStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Issues and pull requests by number (a pull request's comments are its issue's). */
  readonly issues = new Map<number, StandInIssue>();
  readonly labels = new Set<string>();
  /** Run attempts by `${runId}/${attempt}`; unknown ones answer 404. */
  readonly runAttempts = new Map<string, RunAttemptStatus>();
  private nextId = 1000;

  private constructor(
    private readonly server: Server,
    /** The base URL, as `GITHUB_API_URL`. */
    readonly url: string,
    private readonly repo: string,
  ) {}

  /** Starts the stand-in for repository `owner/name` on a free loopback port. */
  static async start(repo: string): Promise<GitHubStandIn> {
    const holder: { standIn?: GitHubStandIn } = {};
    const server = createServer((request, response) => {
      void holder.standIn?.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    holder.standIn = new GitHubStandIn(server, `http://127.0.0.1:${port}`, repo);
    return holder.standIn;
  }

  /** A pull request the workflows comment on. */
  openPullRequest(number: number, title: string): void {
    this.issues.set(number, {
      number,
      title,
      body: "",
      state: "open",
      labels: [],
      comments: [],
      pull_request: { url: "" },
    });
  }

  /** Requests other than reads (what the workflows changed), as `METHOD path`. */
  writes(): string[] {
    return this.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url ?? "/", this.url);
    const recorded: RecordedRequest = {
      method: request.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
      authorization: request.headers.authorization,
    };
    this.requests.push(recorded);
    const prefix = `/repos/${this.repo}`;
    if (!recorded.path.startsWith(prefix + "/")) return json(response, 404, { message: "Not Found" });
    this.route(recorded, recorded.path.slice(prefix.length), response);
  }

  private route(request: RecordedRequest, path: string, response: ServerResponse): void {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const key = `${request.method} ${path.replace(/\/\d+/g, "/N")}`;
    const ids = [...path.matchAll(/\/(\d+)/g)].map((m) => Number(m[1]));
    const issue = this.issues.get(ids[0] ?? -1);
    switch (key) {
      case "GET /actions/runs/N/attempts/N": {
        const status = this.runAttempts.get(`${ids[0]}/${ids[1]}`);
        return status
          ? json(response, 200, { id: ids[0], run_attempt: ids[1], ...status })
          : json(response, 404, {});
      }
      case "GET /issues/N/comments":
        return issue
          ? this.page(
              request,
              response,
              path,
              issue.comments.map((c) => this.comment(c)),
            )
          : json(response, 404, {});
      case "POST /issues/N/comments": {
        if (!issue) return json(response, 404, {});
        const comment = { id: this.nextId++, body: String(body.body) };
        issue.comments.push(comment);
        return json(response, 201, this.comment(comment));
      }
      case "PATCH /issues/comments/N": {
        const comment = [...this.issues.values()].flatMap((i) => i.comments).find((c) => c.id === ids[0]);
        if (!comment) return json(response, 404, {});
        comment.body = String(body.body);
        return json(response, 200, this.comment(comment));
      }
      case "GET /issues": {
        const wanted = request.query.labels?.split(",").filter(Boolean) ?? [];
        const state = request.query.state ?? "open";
        const found = [...this.issues.values()].filter(
          (i) => (state === "all" || i.state === state) && wanted.every((l) => i.labels.includes(l)),
        );
        return this.page(
          request,
          response,
          path,
          found.map((i) => this.issueView(i)),
        );
      }
      case "GET /issues/N":
        return issue ? json(response, 200, this.issueView(issue)) : json(response, 404, {});
      case "POST /issues": {
        const number = this.nextId++;
        const labels = ((body.labels as unknown[] | undefined) ?? []).map((l) =>
          typeof l === "string" ? l : String((l as { name: string }).name),
        );
        labels.forEach((l) => this.labels.add(l));
        const created: StandInIssue = {
          number,
          title: String(body.title),
          body: String(body.body ?? ""),
          state: "open",
          labels,
          comments: [],
        };
        this.issues.set(number, created);
        return json(response, 201, this.issueView(created));
      }
      case "PATCH /issues/N": {
        if (!issue) return json(response, 404, {});
        if (typeof body.title === "string") issue.title = body.title;
        if (typeof body.body === "string") issue.body = body.body;
        if (body.state === "open" || body.state === "closed") issue.state = body.state;
        return json(response, 200, this.issueView(issue));
      }
      case "POST /issues/N/labels": {
        if (!issue) return json(response, 404, {});
        const added = ((body.labels as string[] | undefined) ?? []).filter((l) => !issue.labels.includes(l));
        issue.labels.push(...added);
        added.forEach((l) => this.labels.add(l));
        return json(
          response,
          200,
          issue.labels.map((name) => ({ name })),
        );
      }
      case "GET /labels":
        return this.page(
          request,
          response,
          path,
          [...this.labels].map((name) => ({ name })),
        );
      case "POST /labels":
        this.labels.add(String(body.name));
        return json(response, 201, { name: body.name });
      default:
        return json(response, 404, { message: "Not Found (not answered by the GitHub stand-in)" });
    }
  }

  /** One page of `items`, as GitHub pages them (`per_page` default 30, at most 100; a `Link` to the next). */
  private page(request: RecordedRequest, response: ServerResponse, path: string, items: unknown[]): void {
    const perPage = Math.min(Number(request.query.per_page ?? 30), 100);
    const page = Number(request.query.page ?? 1);
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = {};
    if (page * perPage < items.length) {
      const next = new URL(`${this.url}/repos/${this.repo}${path}`);
      for (const [k, v] of Object.entries(request.query)) next.searchParams.set(k, v);
      next.searchParams.set("page", String(page + 1));
      next.searchParams.set("per_page", String(perPage));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    json(response, 200, slice, headers);
  }

  private comment(c: StandInComment): unknown {
    return { id: c.id, body: c.body, user: { login: "github-actions[bot]", type: "Bot" } };
  }

  private issueView(i: StandInIssue): unknown {
    return { ...i, comments: i.comments.length, labels: i.labels.map((name) => ({ name })) };
  }
}
