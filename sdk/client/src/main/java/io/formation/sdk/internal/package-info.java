/** Transport and JSON plumbing; not part of the public API. */
package io.formation.sdk.internal;
