package dev.idgen.spring.boot;

import dev.idgen.segment.BusinessNumberGenerator;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link BusinessNumberGenerator} bean per {@code idgen.business-number.<name>},
 * named {@code <name>BusinessNumbers} and qualified by {@code <name>}, each the generator that
 * {@link BusinessNumbers} holds under that name.
 */
final class BusinessNumberBeans implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

    private Environment environment;
    private BeanFactory beanFactory;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** {@return the names configured under {@code idgen.business-number}} */
    static Set<String> names(Binder binder) {
        return binder.bind("idgen.business-number",
                Bindable.mapOf(String.class, IdgenBusinessNumberProperties.Numbers.class)).map(Map::keySet)
                .orElse(Set.of());
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        BeanFactory beans = beanFactory;
        for (String name : names(Binder.get(environment))) {
            RootBeanDefinition definition = new RootBeanDefinition(BusinessNumberGenerator.class,
                    () -> beans.getBean(BusinessNumbers.class).get(name));
            definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
            registry.registerBeanDefinition(name + "BusinessNumbers", definition);
        }
    }
}
