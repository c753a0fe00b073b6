package lab.responsetime.resources;

import lab.responsetime.core.StudyRequest;
import lab.responsetime.core.StudyService;

/**
 * The entity of a data answer, written by {@link PayloadWriter}: the request (with its resolved
 * compression level) and what {@link StudyService} prepared for it.
 */
record Payload<T>(StudyRequest<T> request, StudyService.Prepared<T> prepared) {}
