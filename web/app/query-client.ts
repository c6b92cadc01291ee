import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "../lib/api-client.js";

/** One client for the app, shared by components and route loaders (guards). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Never retry what the server refused on purpose (401, 403, 404, validation).
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});
