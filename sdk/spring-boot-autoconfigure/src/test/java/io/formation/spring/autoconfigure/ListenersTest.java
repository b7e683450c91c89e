package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.FormationListener;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListenersTest {
  @Test
  void everyEventOfAFormationListenerReachesEveryListenerBean() {
    List<String> notForwarded =
        Arrays.stream(FormationListener.class.getMethods())
            .filter(method -> !Modifier.isStatic(method.getModifiers()))
            .filter(method -> !forwarded(method))
            .map(Method::toString)
            .toList();

    assertThat(notForwarded).as("events the listener beans would never hear").isEmpty();
  }

  private static boolean forwarded(Method event) {
    try {
      return Listeners.class
          .getDeclaredMethod(event.getName(), event.getParameterTypes())
          .getDeclaringClass()
          .equals(Listeners.class);
    } catch (NoSuchMethodException e) {
      return false;
    }
  }
}
