/**
 * An Express app's (or router's) routes as 'METHOD /path', mounted routers' under `prefix` (Express
 * keeps no mount path to read back); a Fastify server's as its onRoute hook listed them (ServedApi).
 */
export function routesOf(app: { router: { stack: unknown[] } } | { routes: readonly string[] }, prefix = '/api'): string[] {
  if ('routes' in app) return [...app.routes];
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
  const walk = (stack: Layer[], under: string): string[] =>
    stack.flatMap((layer) => {
      if (layer.route) return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${under}${layer.route!.path}`);
      return layer.handle?.stack ? walk(layer.handle.stack, prefix) : [];
    });
  return walk(app.router.stack as Layer[], '');
}
