package dev.idgen.spring.boot.data;

import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.spring.boot.IdgenAutoConfiguration;
import dev.idgen.uuid.UuidV7Generator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;

/**
 * With Spring Data JDBC and idgen-hibernate's annotations on the classpath, registers
 * {@link EntityIdCallback}, so {@code @Snowflake} and {@code @UuidV7} properties of Spring Data JDBC
 * aggregates get their values from the starter's generator beans before they are inserted.
 */
// after Spring Data JDBC's repositories auto-configuration, named as Boot 4 and Boot 3 name it (the same
// class serves both starters)
@AutoConfiguration(after = IdgenAutoConfiguration.class, afterName = {
        "org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.jdbc.JdbcRepositoriesAutoConfiguration"})
@ConditionalOnClass(name = {"org.springframework.data.jdbc.core.JdbcAggregateTemplate", "dev.idgen.hibernate.Snowflake"})
public class IdgenDataJdbcAutoConfiguration {

    /** Made by Spring. */
    public IdgenDataJdbcAutoConfiguration() {
    }

    /**
     * The callback, on the application's mapping context and generator beans.
     *
     * @param context Spring Data JDBC's mapping context
     * @param snowflake the Snowflake generator bean, if there is one
     * @param uuidV7 the UUIDv7 generator bean, if there is one
     * @return the callback
     */
    @Bean
    @ConditionalOnBean(RelationalMappingContext.class)
    @ConditionalOnMissingBean
    public EntityIdCallback idgenEntityIdCallback(RelationalMappingContext context,
            ObjectProvider<SnowflakeGenerator> snowflake, ObjectProvider<UuidV7Generator> uuidV7) {
        return new EntityIdCallback(context, snowflake::getIfAvailable, uuidV7::getIfAvailable);
    }
}
