/** The post page's route (app.tsx), also matched by the edge's per-request render (prerender.tsx). */
export const POST_ROUTE = '/post/:id';
