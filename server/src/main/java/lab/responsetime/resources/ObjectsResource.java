package lab.responsetime.resources;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import lab.responsetime.core.RetryLaterException;
import lab.responsetime.core.StudyRequest;
import lab.responsetime.core.StudyService;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.computation.ClientPresence;
import lab.responsetime.core.computation.WorkTooLargeException;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.jetty.ClientPresenceFilter;
import org.glassfish.jersey.server.CloseableService;

/**
 * {@code GET /api/books} and {@code GET /api/videos}: the first {@code count} objects, sorted on
 * the server by computation model {@code cm}, in {@code format}, compressed as {@code compression}
 * says (and only as it says) at {@code level}. Errors are exceptions, answered by the mappers
 * beside this class.
 *
 * <p>{@code HEAD} answers with the status and headers GET would have, without GET's work: no
 * sorting, no serializing, no computation slot. So it has neither {@code Content-Length} nor {@code
 * Server-Timing} (both need the body).
 */
@Path("/")
public final class ObjectsResource {
    private final StudyService service;

    public ObjectsResource(StudyService service) {
        this.service = service;
    }

    /**
     * The path of each object kind ({@link ObjectKind#plural()}), here and in {@link
     * IngestResource} (POST); anything else is a 404.
     */
    static final String KINDS = "{kind: [a-z][a-z0-9-]{0,31}}";

    @GET
    @Path(KINDS)
    public Response get(
            @PathParam("kind") String kind,
            @Context UriInfo uri,
            @Context ContainerRequestContext request,
            @Context CloseableService closeables)
            throws RequestParameters.InvalidParametersException,
                    WorkTooLargeException,
                    RetryLaterException,
                    CancelledException,
                    InterruptedException {
        return get(kindNamed(service.datasets(), kind), uri, request, closeables);
    }

    @HEAD
    @Path(KINDS)
    public Response head(@PathParam("kind") String kind, @Context UriInfo uri)
            throws RequestParameters.InvalidParametersException,
                    WorkTooLargeException,
                    RetryLaterException {
        return head(kindNamed(service.datasets(), kind), uri);
    }

    /** Books, Videos or a brought dataset; anything else a 404. */
    static ObjectKind<?> kindNamed(Datasets datasets, String name) {
        return datasets.kindNamed(name)
                .orElseThrow(() -> new NotFoundException("no dataset named " + name));
    }

    private <T> Response get(
            ObjectKind<T> kind,
            UriInfo uri,
            ContainerRequestContext context,
            CloseableService closeables)
            throws RequestParameters.InvalidParametersException,
                    WorkTooLargeException,
                    RetryLaterException,
                    CancelledException,
                    InterruptedException {
        StudyRequest<T> request = parse(kind, uri);
        StudyService.Prepared<T> prepared = service.prepare(request, clientOf(context));
        // PayloadWriter frees a heavy compression's slot after the body; this, should the body
        // never be written.
        closeables.add(prepared.admission());
        return headers(request).entity(new Payload<>(request, prepared)).build();
    }

    private <T> Response head(ObjectKind<T> kind, UriInfo uri)
            throws RequestParameters.InvalidParametersException,
                    WorkTooLargeException,
                    RetryLaterException {
        StudyRequest<T> request = parse(kind, uri);
        service.check(request);
        return headers(request).build();
    }

    private <T> StudyRequest<T> parse(ObjectKind<T> kind, UriInfo uri)
            throws RequestParameters.InvalidParametersException {
        return RequestParameters.parse(
                kind, uri.getQueryParameters(), service.datasets().sizeOf(kind));
    }

    /** The headers GET and HEAD share. */
    private static Response.ResponseBuilder headers(StudyRequest<?> request) {
        Response.ResponseBuilder answer =
                Response.ok()
                        .type(request.format().mediaType())
                        .header(HttpHeaders.CACHE_CONTROL, "no-store");
        request.compression()
                .contentEncoding()
                .ifPresent(encoding -> answer.header(HttpHeaders.CONTENT_ENCODING, encoding));
        return answer;
    }

    /**
     * The client's presence as the servlet container hands it over, or unknown (in-memory tests).
     */
    private static ClientPresence clientOf(ContainerRequestContext context) {
        return context.getProperty(ClientPresenceFilter.ATTRIBUTE)
                        instanceof ClientPresence presence
                ? presence
                : ClientPresence.UNKNOWN;
    }
}
