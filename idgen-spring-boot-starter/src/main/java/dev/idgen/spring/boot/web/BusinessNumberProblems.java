package dev.idgen.spring.boot.web;

import dev.idgen.segment.MalformedBusinessNumberException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a {@link MalformedBusinessNumberException} that reaches Spring MVC (a number from a path,
 * a parameter or a body that does not have its pattern's shape) with HTTP 400 and an RFC 9457
 * problem: {@code title} "Malformed business number", {@code detail} the exception's message,
 * and the properties {@code number} and {@code pattern}. Lowest precedence: an
 * {@code @ExceptionHandler} of the application's own, in its controller or in an advice with a
 * higher precedence, answers first.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class BusinessNumberProblems {

    /** Made by Spring. */
    public BusinessNumberProblems() {
    }

    /**
     * @param e the number that did not read
     * @return the 400 problem
     */
    @ExceptionHandler(MalformedBusinessNumberException.class)
    public ProblemDetail malformed(MalformedBusinessNumberException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Malformed business number");
        problem.setProperty("number", e.text());
        problem.setProperty("pattern", e.pattern());
        return problem;
    }
}
