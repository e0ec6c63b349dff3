/**
 * Spring MVC: a malformed business number read back answers HTTP 400 with a problem detail
 * ({@link dev.idgen.spring.boot.web.BusinessNumberProblems}).
 */
package dev.idgen.spring.boot.web;
