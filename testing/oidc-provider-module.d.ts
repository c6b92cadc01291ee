/**
 * The few parts of `oidc-provider` (a test-only dependency, shipped without types) that
 * testing/oidc-provider.ts uses.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface GrantConstructor {
    new (properties: { clientId: string; accountId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface KoaContextWithOIDC {
    path: string;
    method: string;
    /** A request header, "" when absent (Koa's ctx.get). */
    get(field: string): string;
    status: number;
    body: unknown;
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
    };
  }

  type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    Grant: GrantConstructor;
    use(middleware: Middleware): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
