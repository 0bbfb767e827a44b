package jannopts;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** Stub of jannopts' option annotation (lib/jannopts.jar of jhclark/multeval): the BLEU metric
 * only declares its verbosity option with it. */
@Retention(RetentionPolicy.RUNTIME)
public @interface Option {
  String shortName() default "";
  String longName() default "";
  String usage() default "";
  String defaultValue() default "";
  boolean required() default false;
}
