/**
 * A STAND-IN for GitHub's REST API (not GitHub), shared by the review commands' integration tests
 * and the GitOps e2e: a loopback HTTP server that keeps issues (a pull request is an issue), their
 * comments and labels in memory, answers a workflow run attempt's status from a table the test
 * sets, checks the token, and records every request it receives, so that a test asserts what a
 * command or a workflow sent to "GitHub". It answers only the endpoints the package's commands and
 * the example repository's scripts use, in GitHub's shapes (https://docs.github.com/rest/issues):
 * pages with `per_page`, `page` and a `Link` header with `rel="next"`; anything else is recorded
 * and answered 404.
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
  /** Whether it is a pull request (GitHub then gives the issue a `pull_request` field). */
  pullRequest: boolean;
  comments: StandInComment[];
}

/** A run attempt's status as GitHub reports it (`GET …/actions/runs/{id}/attempts/{n}`). */
export interface RunAttemptStatus {
  status: "queued" | "in_progress" | "completed";
  conclusion: "success" | "failure" | "cancelled" | null;
}

export interface StandInOptions {
  /** The token every request must carry (`token T` or `Bearer T`); others are answered 401. */
  token: string;
  /** `owner/name`: only this repository's routes are answered (any repository's when not set). */
  repo?: string;
  /** The largest page served, whatever `per_page` asks (GitHub's is 100). */
  pageLimit?: number;
}

/** A request's route, as GitHub's docs name it: `/issues/7/comments` → `/issues/:number/comments`. */
export function routeOf(path: string): string {
  return path
    .replace(/^\/repos\/[^/]+\/[^/]+/, "")
    .replace(/\/issues\/comments\/\d+/, "/issues/comments/:id")
    .replace(/\/issues\/\d+/, "/issues/:number")
    .replace(/\/runs\/\d+\/attempts\/\d+/, "/runs/:id/attempts/:attempt");
}

export class GitHubStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Issues and pull requests by number (a pull request's comments are its issue's). */
  readonly issues = new Map<number, StandInIssue>();
  readonly labels = new Set<string>();
  /** Run attempts by `${runId}/${attempt}`; unknown ones answer 404. */
  readonly runAttempts = new Map<string, RunAttemptStatus>();
  private nextId = 1_000;

  private constructor(
    private readonly server: Server,
    /** The base URL, as `GITHUB_API_URL`. */
    readonly url: string,
    private readonly options: StandInOptions,
  ) {}

  /** Starts the stand-in on a free loopback port. */
  static async start(options: StandInOptions): Promise<GitHubStandIn> {
    const holder: { standIn?: GitHubStandIn } = {};
    const server = createServer((request, response) => {
      void holder.standIn?.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    holder.standIn = new GitHubStandIn(server, `http://127.0.0.1:${port}`, options);
    return holder.standIn;
  }

  /** Adds an issue (or, with `pullRequest`, a pull request) with `comments` comments by others. */
  addIssue(fields: Partial<StandInIssue> & { number: number }, comments = 0): StandInIssue {
    const issue: StandInIssue = {
      title: `#${fields.number}`,
      body: "",
      state: "open",
      labels: [],
      pullRequest: false,
      comments: [],
      ...fields,
    };
    for (let i = 0; i < comments; i++)
      issue.comments.push({ id: this.nextId++, body: `comment ${i} by someone` });
    issue.labels.forEach((label) => this.labels.add(label));
    this.issues.set(issue.number, issue);
    return issue;
  }

  /** A pull request the workflows comment on. */
  openPullRequest(number: number, title: string): StandInIssue {
    return this.addIssue({ number, title, pullRequest: true });
  }

  /** Requests by `METHOD route`, counted. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { method, path } of this.requests) {
      const key = `${method} ${routeOf(path)}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  /** Requests other than reads (what was changed), as `METHOD path`. */
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
    const { token, repo } = this.options;
    if (recorded.authorization !== `token ${token}` && recorded.authorization !== `Bearer ${token}`)
      return send(response, 401, { message: "Bad credentials" });
    const match = /^\/repos\/([^/]+\/[^/]+)(\/.*)$/.exec(recorded.path);
    if (!match || (repo !== undefined && match[1] !== repo))
      return send(response, 404, { message: "Not Found" });
    this.route(recorded, match[2] ?? "", response);
  }

  private route(request: RecordedRequest, path: string, response: ServerResponse): void {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const ids = [...path.matchAll(/\/(\d+)/g)].map((m) => Number(m[1]));
    const issue = this.issues.get(ids[0] ?? -1);
    const notFound = () => send(response, 404, { message: "Not Found" });
    switch (`${request.method} ${routeOf(path)}`) {
      case "GET /actions/runs/:id/attempts/:attempt": {
        const status = this.runAttempts.get(`${ids[0]}/${ids[1]}`);
        return status ? send(response, 200, { id: ids[0], run_attempt: ids[1], ...status }) : notFound();
      }
      case "GET /issues/:number/comments":
        if (!issue) return notFound();
        return this.page(request, response, issue.comments.map(commentView));
      case "POST /issues/:number/comments": {
        if (!issue) return notFound();
        const comment = { id: this.nextId++, body: String(body.body) };
        issue.comments.push(comment);
        return send(response, 201, commentView(comment));
      }
      case "PATCH /issues/comments/:id": {
        const comment = [...this.issues.values()].flatMap((i) => i.comments).find((c) => c.id === ids[0]);
        if (!comment) return notFound();
        comment.body = String(body.body);
        return send(response, 200, commentView(comment));
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
          found.map((i) => this.issueView(i)),
        );
      }
      case "GET /issues/:number":
        return issue ? send(response, 200, this.issueView(issue)) : notFound();
      case "POST /issues": {
        const labels = ((body.labels as unknown[] | undefined) ?? []).map((l) =>
          typeof l === "string" ? l : String((l as { name: string }).name),
        );
        const number = Math.max(0, ...this.issues.keys()) + 1;
        const created = this.addIssue({
          number,
          title: String(body.title),
          body: String(body.body ?? ""),
          labels,
        });
        return send(response, 201, this.issueView(created));
      }
      case "PATCH /issues/:number": {
        if (!issue) return notFound();
        if (typeof body.title === "string") issue.title = body.title;
        if (typeof body.body === "string") issue.body = body.body;
        if (body.state === "open" || body.state === "closed") issue.state = body.state;
        return send(response, 200, this.issueView(issue));
      }
      case "POST /issues/:number/labels": {
        if (!issue) return notFound();
        const added = ((body.labels as string[] | undefined) ?? []).filter((l) => !issue.labels.includes(l));
        issue.labels.push(...added);
        added.forEach((l) => this.labels.add(l));
        return send(
          response,
          200,
          issue.labels.map((name) => ({ name })),
        );
      }
      case "GET /labels":
        return this.page(
          request,
          response,
          [...this.labels].map((name) => ({ name })),
        );
      case "POST /labels":
        this.labels.add(String(body.name));
        return send(response, 201, { name: body.name });
      default:
        return send(response, 404, { message: "Not Found (not answered by the GitHub stand-in)" });
    }
  }

  /** One page of `items`, as GitHub pages them (`per_page` default 30, capped; a `Link` to the next). */
  private page(request: RecordedRequest, response: ServerResponse, items: unknown[]): void {
    const perPage = Math.min(Number(request.query.per_page ?? 30), this.options.pageLimit ?? 100);
    const page = Number(request.query.page ?? 1);
    const headers: Record<string, string> = {};
    if (page * perPage < items.length) {
      const next = new URL(request.path, this.url);
      for (const [k, v] of Object.entries(request.query)) next.searchParams.set(k, v);
      next.searchParams.set("page", String(page + 1));
      next.searchParams.set("per_page", String(perPage));
      headers.link = `<${next.href}>; rel="next"`;
    }
    send(response, 200, items.slice((page - 1) * perPage, page * perPage), headers);
  }

  private issueView(i: StandInIssue): unknown {
    const { pullRequest, ...fields } = i;
    return {
      ...fields,
      comments: i.comments.length,
      labels: i.labels.map((name) => ({ name })),
      ...(pullRequest ? { pull_request: { url: `${this.url}/pulls/${i.number}` } } : {}),
    };
  }
}

function commentView(c: StandInComment): unknown {
  return { id: c.id, body: c.body, user: { login: "github-actions[bot]", type: "Bot" } };
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  response.end(JSON.stringify(body));
}
