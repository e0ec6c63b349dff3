package dev.idgen.spring.boot.web;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * In a Spring MVC application: {@link BusinessNumberProblems}, so a malformed business number read
 * back answers 400 instead of 500. Replace it with a bean of that type, or exclude this
 * auto-configuration.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = {"org.springframework.web.servlet.DispatcherServlet",
    "dev.idgen.segment.MalformedBusinessNumberException"})
public class IdgenWebMvcAutoConfiguration {

    /** Made by Spring. */
    public IdgenWebMvcAutoConfiguration() {
    }

    /** {@return the advice mapping a malformed business number to 400} */
    @Bean
    @ConditionalOnMissingBean
    public BusinessNumberProblems idgenBusinessNumberProblems() {
        return new BusinessNumberProblems();
    }
}
