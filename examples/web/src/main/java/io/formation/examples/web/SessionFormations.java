package io.formation.examples.web;

import jakarta.servlet.http.HttpSession;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.web.util.WebUtils;

/**
 * The document sets a browser session started; the backend acts only on those. The token can act on
 * every document set of the partner, so without this check anybody who learns an id could read and
 * fill in another user's forms. In a product, tie document sets to the signed-in user instead.
 */
final class SessionFormations {
  private static final String ATTRIBUTE = SessionFormations.class.getName();

  private SessionFormations() {}

  static void remember(HttpSession session, String id) {
    ids(session).add(id);
  }

  static void require(HttpSession session, String id) {
    if (session == null || !ids(session).contains(id)) {
      throw NotHere.formation(id);
    }
  }

  @SuppressWarnings("unchecked")
  private static Set<String> ids(HttpSession session) {
    synchronized (WebUtils.getSessionMutex(session)) {
      Object ids = session.getAttribute(ATTRIBUTE);
      if (ids == null) {
        ids = ConcurrentHashMap.newKeySet();
        session.setAttribute(ATTRIBUTE, ids);
      }
      return (Set<String>) ids;
    }
  }
}
