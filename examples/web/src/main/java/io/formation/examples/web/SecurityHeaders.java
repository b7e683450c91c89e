package io.formation.examples.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Headers that keep the page to itself: scripts, styles and calls from this origin only, no
 * framing, no referrer, and API answers (which hold what users typed) never cached.
 */
@Component
final class SecurityHeaders extends OncePerRequestFilter {
  // 'unsafe-eval': AJV compiles each form's JSON Schema into a function, which is what makes it
  // fast; nothing else on the page evaluates code.
  private static final String POLICY =
      "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    response.setHeader("Content-Security-Policy", POLICY);
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("Referrer-Policy", "no-referrer");
    if (request.getRequestURI().startsWith("/api/")) {
      response.setHeader("Cache-Control", "no-store");
    }
    chain.doFilter(request, response);
  }
}
