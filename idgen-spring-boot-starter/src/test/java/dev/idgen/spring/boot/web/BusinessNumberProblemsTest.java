package dev.idgen.spring.boot.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.idgen.segment.BusinessNumberFormat;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * A controller that reads a business number from its path, in a Spring MVC application with the
 * starter: a malformed number answers 400 with a problem naming the number and the pattern, a good
 * one 200; outside a web application the advice is not made.
 */
class BusinessNumberProblemsTest {

    /** Reads {@code /invoices/{number}} as a business number and answers its counter. */
    @RestController
    static class Invoices {
        private static final BusinessNumberFormat FORMAT = BusinessNumberFormat.builder().pattern("INV-yyyyMMdd-NNNNNN")
                .build();

        @GetMapping("/invoices/{number}")
        String counter(@PathVariable("number") String number) {
            return Long.toString(FORMAT.parse(number).counter());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    @Import(Invoices.class)
    static class Web {
    }

    @Test
    void aMalformedNumberIsABadRequest() {
        new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdgenWebMvcAutoConfiguration.class))
                .withUserConfiguration(Web.class).run(context -> {
                    MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
                    MvcResult bad = mvc.perform(get("/invoices/INV-2026-7")).andReturn();
                    assertThat(bad.getResponse().getStatus()).isEqualTo(400);
                    assertThat(bad.getResponse().getContentType()).isEqualTo("application/problem+json");
                    assertThat(bad.getResponse().getContentAsString())
                            .contains("\"title\":\"Malformed business number\"", "\"status\":400",
                                    "\"number\":\"INV-2026-7\"", "\"pattern\":\"INV-yyyyMMdd-NNNNNN\"",
                                    "not a business number of pattern INV-yyyyMMdd-NNNNNN");
                    MvcResult good = mvc.perform(get("/invoices/INV-20261203-000042")).andReturn();
                    assertThat(good.getResponse().getStatus()).isEqualTo(200);
                    assertThat(good.getResponse().getContentAsString()).isEqualTo("42");
                });
    }

    @Test
    void outsideAWebApplicationNothingIsAdded() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdgenWebMvcAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(BusinessNumberProblems.class));
    }
}
