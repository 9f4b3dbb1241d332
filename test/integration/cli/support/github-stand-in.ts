/**
 * A STAND-IN for GitHub's REST API on loopback, for the review commands' tests: the few routes
 * they use (an issue's comments, issues by label, creating and editing both), with GitHub's
 * pagination (`per_page`, `page`, a `Link` header with `rel="next"`), its token check, and a
 * record of every request. It is not GitHub: only what the commands need, kept as GitHub
 * documents it (https://docs.github.com/rest/issues).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StandInComment {
  id: number;
  body: string;
}

export interface StandInIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: "open" | "closed";
  pullRequest: boolean;
  comments: StandInComment[];
}

/** One request the stand-in answered: method and route (`PATCH /issues/comments/:id`). */
export interface StandInRequest {
  method: string;
  route: string;
}

export class GitHubStandIn {
  readonly requests: StandInRequest[] = [];
  readonly issues = new Map<number, StandInIssue>();
  private nextId = 1_000;
  private server: Server | undefined;
  url = "";

  /** @param token the token requests must carry; @param pageLimit the largest page it serves */
  constructor(
    private readonly token: string,
    private readonly pageLimit = 30,
  ) {}

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Adds an issue (or a pull request) with `comments` comments by others. */
  addIssue(fields: Partial<StandInIssue> & { number: number }, comments = 0): StandInIssue {
    const issue: StandInIssue = {
      title: `#${fields.number}`,
      body: "",
      labels: [],
      state: "open",
      pullRequest: false,
      comments: [],
      ...fields,
    };
    for (let i = 0; i < comments; i++)
      issue.comments.push({ id: this.nextId++, body: `comment ${i} by someone` });
    this.issues.set(issue.number, issue);
    return issue;
  }

  /** Requests by route, counted. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { method, route } of this.requests)
      counts[`${method} ${route}`] = (counts[`${method} ${route}`] ?? 0) + 1;
    return counts;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length
      ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>)
      : {};
    const auth = req.headers.authorization ?? "";
    if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`) {
      return this.send(res, 401, { message: "Bad credentials" });
    }
    const method = req.method ?? "GET";
    const parts = url.pathname.split("/").filter(Boolean); // repos, owner, repo, issues, …
    const rest = parts.slice(3);
    const record = (route: string) => this.requests.push({ method, route });
    if (parts[0] !== "repos" || rest[0] !== "issues") return this.send(res, 404, { message: "Not Found" });
    if (rest.length === 3 && rest[2] === "comments") {
      const issue = this.issues.get(Number(rest[1]));
      if (!issue) return this.send(res, 404, { message: "Not Found" });
      if (method === "GET") {
        record("/issues/:number/comments");
        return this.page(
          res,
          url,
          issue.comments.map((c) => ({ id: c.id, body: c.body })),
        );
      }
      record("/issues/:number/comments");
      const comment = { id: this.nextId++, body: String(body.body) };
      issue.comments.push(comment);
      return this.send(res, 201, comment);
    }
    if (rest.length === 3 && rest[1] === "comments" && method === "PATCH") {
      record("/issues/comments/:id");
      const comment = [...this.issues.values()]
        .flatMap((i) => i.comments)
        .find((c) => c.id === Number(rest[2]));
      if (!comment) return this.send(res, 404, { message: "Not Found" });
      comment.body = String(body.body);
      return this.send(res, 200, comment);
    }
    if (rest.length === 1) {
      record("/issues");
      if (method === "POST") {
        const number = Math.max(0, ...this.issues.keys()) + 1;
        const issue = this.addIssue({
          number,
          title: String(body.title),
          body: String(body.body ?? ""),
          labels: (body.labels as string[] | undefined) ?? [],
        });
        return this.send(res, 201, this.issueJson(issue));
      }
      const labels = (url.searchParams.get("labels") ?? "").split(",").filter(Boolean);
      const state = url.searchParams.get("state") ?? "open";
      const matching = [...this.issues.values()].filter(
        (i) => (state === "all" || i.state === state) && labels.every((l) => i.labels.includes(l)),
      );
      return this.page(
        res,
        url,
        matching.map((i) => this.issueJson(i)),
      );
    }
    if (rest.length === 2 && method === "PATCH") {
      record("/issues/:number");
      const issue = this.issues.get(Number(rest[1]));
      if (!issue) return this.send(res, 404, { message: "Not Found" });
      if (typeof body.body === "string") issue.body = body.body;
      if (body.state === "open" || body.state === "closed") issue.state = body.state;
      return this.send(res, 200, this.issueJson(issue));
    }
    return this.send(res, 404, { message: "Not Found" });
  }

  private issueJson(issue: StandInIssue) {
    return {
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: issue.state,
      labels: issue.labels.map((name) => ({ name })),
      ...(issue.pullRequest ? { pull_request: { url: `${this.url}/pulls/${issue.number}` } } : {}),
    };
  }

  /** One page of `items`, GitHub's way: `per_page` (capped), `page` from 1, a `Link` to the next. */
  private page(res: ServerResponse, url: URL, items: unknown[]): void {
    const perPage = Math.min(Number(url.searchParams.get("per_page") ?? 30), this.pageLimit);
    const page = Number(url.searchParams.get("page") ?? 1);
    const slice = items.slice((page - 1) * perPage, page * perPage);
    if (page * perPage < items.length) {
      const next = new URL(url);
      next.searchParams.set("page", String(page + 1));
      res.setHeader("link", `<${next.href}>; rel="next"`);
    }
    this.send(res, 200, slice);
  }

  private send(res: ServerResponse, status: number, json: unknown): void {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(json));
  }
}
